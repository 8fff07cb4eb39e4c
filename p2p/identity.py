"""A user's long-term identity: an Ed25519 key pair, a display name and a fingerprint code.

The key lives in `identity.json` in the user's data directory (platformdirs), a private file
(mode 0600 on POSIX; p2p/platform.py says what private means on each system). The
fingerprint code is what two people read aloud to check they see the same key: five groups of five
digits derived from SHA-256 of the public key (about 83 bits, in the style of Signal's safety
numbers). `fingerprint` is the short hex form used in mDNS TXT records.
"""

from __future__ import annotations

import functools
import getpass
import hashlib
import json
import logging
import secrets
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.bindings import (
    crypto_sign_ed25519_pk_to_curve25519,
    crypto_sign_ed25519_sk_to_curve25519,
)
from nacl.exceptions import BadSignatureError, CryptoError
from nacl.public import PrivateKey, PublicKey, SealedBox
from nacl.signing import VerifyKey

from fairdeal.p2p import platform
from fairdeal.p2p.errors import IdentityFileError

log = logging.getLogger(__name__)

IDENTITY_FILE = "identity.json"
PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64
MAX_NAME_LENGTH = 40
_FINGERPRINT_DOMAIN = b"fairdeal/fingerprint/v1\x00"


def default_data_dir() -> Path:
    """The per-user data directory (e.g. ~/.local/share/fairdeal on Linux)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("fairdeal", appauthor=False))


def fingerprint(public_key: bytes) -> str:
    """Short hex fingerprint (16 hex digits) of a public key, for TXT records and logs."""
    return hashlib.sha256(_FINGERPRINT_DOMAIN + public_key).hexdigest()[:16]


def fingerprint_code(public_key: bytes) -> str:
    """Five groups of five digits, e.g. '04217 88310 ...', to compare aloud."""
    digest = hashlib.sha256(_FINGERPRINT_DOMAIN + public_key).digest()
    groups = [int.from_bytes(digest[i * 5 : i * 5 + 5], "big") % 100_000 for i in range(5)]
    return " ".join(f"{group:05d}" for group in groups)


def distinct_names(names: Sequence[str], keys: Sequence[bytes]) -> list[str]:
    """The seats' names, told apart: a name two seats share gets the first group of each one's
    key code ("root ·04217"), the code people compare aloud."""
    shared = {name for name in names if names.count(name) > 1}
    return [
        f"{name} ·{fingerprint_code(key)[:5]}" if name in shared else name
        for name, key in zip(names, keys, strict=True)
    ]


def clean_name(name: str) -> str:
    """A display name safe to show: printable, single line, at most MAX_NAME_LENGTH characters."""
    printable = "".join(ch for ch in name if ch.isprintable()).strip()
    return printable[:MAX_NAME_LENGTH] or "player"


@functools.lru_cache(maxsize=1024)
def _verify_key(public_key: bytes) -> VerifyKey:
    return VerifyKey(public_key)


def seal_to(public_key: bytes, data: bytes) -> bytes:
    """`data` sealed to the holder of identity key `public_key` alone (libsodium's sealed box to
    the X25519 form of the Ed25519 key: protocol.md 10.8); ValueError for a key that is not a
    point (the roster's keys are checked in the handshake)."""
    try:
        receiver = crypto_sign_ed25519_pk_to_curve25519(public_key)
    except CryptoError as error:
        raise ValueError(f"not an identity key: {error}") from None
    return SealedBox(PublicKey(receiver)).encrypt(data)


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """True when `signature` is a valid Ed25519 signature of `data` by `public_key`.

    libsodium (PyNaCl) verifies: about three times faster than OpenSSL here, and strict (it
    refuses non-canonical signatures and small-order keys), so every peer reaches the same
    verdict on every envelope."""
    if len(public_key) != PUBLIC_KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        _verify_key(public_key).verify(data, signature)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


@dataclass(frozen=True)
class PublicIdentity:
    """What a peer knows about another: its public key and the name it claims."""

    key: bytes
    name: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    @property
    def code(self) -> str:
        return fingerprint_code(self.key)

    def verify(self, signature: bytes, data: bytes) -> bool:
        return verify_signature(self.key, signature, data)

    def __str__(self) -> str:
        return f"{self.name} [{self.fingerprint}]"


class Identity:
    """A long-term signing key with a display name. The private key never appears in a repr."""

    def __init__(self, private_key: Ed25519PrivateKey, name: str) -> None:
        self._private_key = private_key
        self.name = clean_name(name)
        self.public = PublicIdentity(
            key=private_key.public_key().public_bytes_raw(), name=self.name
        )

    @classmethod
    def generate(
        cls, name: str, random_bytes: Callable[[int], bytes] = secrets.token_bytes
    ) -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(random_bytes(32)), name)

    def named(self, name: str) -> Identity:
        """The same key under another display name, for this process only (nothing saved)."""
        return Identity(self._private_key, name)

    @property
    def key(self) -> bytes:
        return self.public.key

    @property
    def fingerprint(self) -> str:
        return self.public.fingerprint

    @property
    def code(self) -> str:
        return self.public.code

    def sign(self, data: bytes) -> bytes:
        return self._private_key.sign(data)

    def unseal(self, box: bytes) -> bytes:
        """Open a sealed box made for this identity (`seal_to(self.key, …)`); CryptoError when
        it was not, or was altered."""
        seed = self._private_key.private_bytes_raw()
        private = crypto_sign_ed25519_sk_to_curve25519(seed + self.key)
        return SealedBox(PrivateKey(private)).decrypt(box)

    def __repr__(self) -> str:
        return f"Identity(name={self.name!r}, fingerprint={self.fingerprint!r})"

    # -- storage ---------------------------------------------------------------------------

    def save(self, directory: Path) -> Path:
        """Write the identity file atomically as a private file; returns its path."""
        platform.current().private_folder(directory)
        path = directory / IDENTITY_FILE
        seed = self._private_key.private_bytes_raw()
        payload = json.dumps({"version": 1, "name": self.name, "seed": seed.hex()}).encode()
        write_private_file(path, payload)
        return path


def write_private_file(path: Path, data: bytes) -> None:
    """Atomically replace `path` with `data`, readable only by the owner, synced to disk."""
    platform.current().replace_file(path, data)


def load_identity(directory: Path) -> Identity:
    """Read the identity file; raises IdentityFileError if it is corrupt or readable by others
    (where the system can tell, p2p/platform.py)."""
    path = directory / IDENTITY_FILE
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise IdentityFileError(
            f"{path} is not a file (a directory?): move it away and a new identity is made, "
            "or point --data at the directory holding your identity.json"
        )
    problem = platform.current().privacy_problem(path, info)
    if problem is not None:
        raise IdentityFileError(problem)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise IdentityFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not raw.strip():
        raise IdentityFileError(
            f"{path} is empty (damaged): restore it from a backup, or move it away to make a "
            "new identity (the other players will see a new key)"
        )
    try:
        data = json.loads(raw)
        seed = bytes.fromhex(data["seed"])
        name = str(data["name"])
        if len(seed) != 32:
            raise ValueError("seed must be 32 bytes")
    except (ValueError, KeyError, TypeError) as exc:
        raise IdentityFileError(
            f"{path} is damaged ({exc}): move it aside and a new identity is made (your key "
            "code changes: tell the other players), or restore it from a backup"
        ) from None
    return Identity(Ed25519PrivateKey.from_private_bytes(seed), name)


def load_or_create_identity(
    directory: Path | None = None,
    name: str | None = None,
    random_bytes: Callable[[int], bytes] = secrets.token_bytes,
) -> Identity:
    """The user's identity, created on first use. A given `name` replaces the stored one."""
    directory = directory if directory is not None else default_data_dir()
    if (directory / IDENTITY_FILE).exists():
        identity = load_identity(directory)
        if name is not None and clean_name(name) != identity.name:
            identity = identity.named(name)
            identity.save(directory)
        return identity
    identity = Identity.generate(name or _default_name(), random_bytes)
    path = identity.save(directory)
    log.info("created identity %s in %s", identity.fingerprint, path)
    return identity


def _default_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "player"
