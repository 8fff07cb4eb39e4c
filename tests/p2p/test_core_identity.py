"""Identity: stored 0600, reloaded unchanged, fingerprints stable, secrets never in a repr."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from fairdeal.p2p.errors import IdentityFileError
from fairdeal.p2p.identity import (
    IDENTITY_FILE,
    Identity,
    fingerprint_code,
    load_or_create_identity,
    verify_signature,
)


def test_identity_is_created_with_mode_0600_and_reloaded(tmp_path: Path) -> None:
    first = load_or_create_identity(tmp_path, name="Ada")
    path = tmp_path / IDENTITY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create_identity(tmp_path)
    assert again.key == first.key
    assert again.name == "Ada"


def test_a_new_name_replaces_the_stored_one_and_keeps_the_key(tmp_path: Path) -> None:
    first = load_or_create_identity(tmp_path, name="Ada")
    renamed = load_or_create_identity(tmp_path, name="Grace")
    assert renamed.key == first.key
    assert load_or_create_identity(tmp_path).name == "Grace"


def test_world_readable_identity_file_is_refused(tmp_path: Path) -> None:
    load_or_create_identity(tmp_path, name="Ada")
    (tmp_path / IDENTITY_FILE).chmod(0o644)
    with pytest.raises(IdentityFileError, match="chmod 600"):
        load_or_create_identity(tmp_path)


def test_corrupt_identity_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / IDENTITY_FILE
    path.write_text('{"version": 1, "name": "x", "seed": "abcd"}')
    path.chmod(0o600)
    with pytest.raises(IdentityFileError, match=r"is damaged .*: move it aside"):
        load_or_create_identity(tmp_path)


def test_signatures_verify_and_tampering_fails() -> None:
    identity = Identity.generate("Ada", random_bytes=lambda n: b"\x01" * n)
    signature = identity.sign(b"message")
    assert verify_signature(identity.key, signature, b"message")
    assert not verify_signature(identity.key, signature, b"messagf")
    other = Identity.generate("Eve", random_bytes=lambda n: b"\x02" * n)
    assert not verify_signature(other.key, signature, b"message")


def test_fingerprint_code_is_five_groups_of_five_digits_and_key_specific() -> None:
    a = Identity.generate("a", random_bytes=lambda n: b"\x01" * n)
    b = Identity.generate("b", random_bytes=lambda n: b"\x02" * n)
    groups = a.code.split(" ")
    assert len(groups) == 5 and all(len(g) == 5 and g.isdigit() for g in groups)
    assert a.code == fingerprint_code(a.key)
    assert a.code != b.code
    assert len(a.fingerprint) == 16 and a.fingerprint != b.fingerprint


def test_repr_hides_the_secret_and_names_are_cleaned() -> None:
    seed = bytes(range(32))
    identity = Identity.generate("Ada\x1b[31m\nLovelace", random_bytes=lambda n: seed)
    assert seed.hex() not in repr(identity)
    assert "\n" not in identity.name and "\x1b" not in identity.name


def test_default_directory_is_the_platform_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    identity = load_or_create_identity(name="Ada")
    path = tmp_path / "fairdeal" / IDENTITY_FILE
    assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_identity().key == identity.key
