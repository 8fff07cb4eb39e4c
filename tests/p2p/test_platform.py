"""Each system's semantics, injected into p2p/platform.py (never by pretending `sys.platform` is
something else): the identity, the secrets, the transcripts, their evidence and a simulation
work under Linux's, macOS's and Windows's. Windows's are played on this machine as Windows
behaves: every writable file stats as 0o666, there is no `os.fchmod`, a folder cannot be opened
to be fsynced, and there is no `resource` module. And nothing outside p2p/platform.py asks which
system it is on, nor calls what only POSIX has."""

from __future__ import annotations

import dataclasses
import errno
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.p2p import platform
from fairdeal.p2p.errors import IdentityFileError
from fairdeal.p2p.identity import IDENTITY_FILE, Identity, load_identity, load_or_create_identity
from fairdeal.p2p.log.tablelog import Roster, TableLog, seat_order
from fairdeal.p2p.log.transcript import (
    SecretStore,
    Transcript,
    TranscriptError,
    TranscriptWriteError,
    load_transcript,
)
from fairdeal.p2p.table.runtime.evidence import EvidenceFile
from fairdeal.p2p.table.tools.audit import audit_many
from fairdeal.p2p.table.tools.simulate import Simulation

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = {"linux": platform.LINUX, "macos": platform.MACOS, "windows": platform.WINDOWS}


def windows_behaviour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make this process's `os` behave as on Windows where it matters here: no fchmod, and a
    folder cannot be opened (os.open of one raises PermissionError there)."""
    monkeypatch.delattr(os, "fchmod", raising=False)
    real_open = os.open

    def windows_open(path: object, flags: int, mode: int = 0o777, **kwargs: object) -> int:
        if isinstance(path, str | Path) and os.path.isdir(path):
            raise PermissionError(errno.EACCES, "Access is denied", str(path))
        return real_open(path, flags, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", windows_open)


@pytest.fixture(params=sorted(SYSTEMS))
def system(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test under each system's semantics."""
    name: str = request.param
    if name == "windows":
        windows_behaviour(monkeypatch)
    with platform.use(SYSTEMS[name]):
        yield name


def roster(count: int) -> tuple[Roster, list[Identity]]:
    ids = [
        Identity.generate(f"p{i}", random_bytes=lambda n, i=i: bytes([i + 1]) * n)
        for i in range(count)
    ]
    return Roster(b"t" * 16, tuple(i.key for i in ids)), ids


def as_windows_stats(path: Path) -> None:
    """What `os.stat` reports on Windows for every file the user can write: 0o666."""
    path.chmod(0o666)


# -- identity -------------------------------------------------------------------------------


def test_an_identity_is_saved_and_loaded(system: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = load_or_create_identity(data, name="Ada")
    assert load_or_create_identity(data).key == made.key
    if system != "windows":
        assert stat.S_IMODE((data / IDENTITY_FILE).stat().st_mode) == 0o600
        assert stat.S_IMODE(data.stat().st_mode) == 0o700


def test_an_identity_that_stats_0o666_is_loaded_on_windows_refused_on_posix(
    system: str, tmp_path: Path
) -> None:
    made = load_or_create_identity(tmp_path, name="Ada")
    as_windows_stats(tmp_path / IDENTITY_FILE)
    if system == "windows":  # every writable file stats so there: the mode says nothing
        assert load_identity(tmp_path).key == made.key
    else:
        with pytest.raises(IdentityFileError, match="chmod 600"):
            load_identity(tmp_path)


def test_a_new_name_rewrites_the_identity_atomically(system: str, tmp_path: Path) -> None:
    load_or_create_identity(tmp_path, name="Ada")
    assert load_or_create_identity(tmp_path, name="Grace").name == "Grace"
    assert sorted(p.name for p in tmp_path.iterdir()) == [IDENTITY_FILE]  # no .tmp left


# -- secrets --------------------------------------------------------------------------------


def test_secrets_are_kept_and_reread(system: str, tmp_path: Path) -> None:
    path = tmp_path / "tables" / "abc.secrets"
    store = SecretStore(path)
    store.put("share", b"\n\r\n\x00" * 8)  # newlines: written as bytes, never as text
    assert SecretStore(path).get("share") == b"\n\r\n\x00" * 8
    if system != "windows":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_secrets_that_stat_0o666_are_read_on_windows_refused_on_posix(
    system: str, tmp_path: Path
) -> None:
    path = tmp_path / "abc.secrets"
    SecretStore(path).put("nonce", 7)
    as_windows_stats(path)
    if system == "windows":
        assert SecretStore(path).get("nonce") == 7
    else:
        with pytest.raises(TranscriptError, match="chmod 600"):
            SecretStore(path)


def test_a_secret_held_open_for_a_moment_is_replaced_on_windows_only(
    system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows refuses to replace a file another program (a scanner) holds open; it lets go."""
    path = tmp_path / "abc.secrets"
    SecretStore(path).put("nonce", 1)
    real_replace, refusals = os.replace, [PermissionError(13, "in use"), PermissionError(13, "")]

    def busy_replace(source: str | Path, target: str | Path) -> None:
        if refusals:
            raise refusals.pop()
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", busy_replace)
    if system == "windows":
        SecretStore(path).put("nonce", 2)
        assert SecretStore(path).get("nonce") == 2
    else:  # a refusal on POSIX is the folder's permissions: reported at once, nothing changed
        with pytest.raises(TranscriptWriteError):
            SecretStore(path).put("nonce", 2)
        assert len(refusals) == 1 and SecretStore(path).get("nonce") == 1


# -- transcripts and evidence ---------------------------------------------------------------


def test_a_transcript_is_written_reopened_and_read(system: str, tmp_path: Path) -> None:
    table, ids = roster(2)
    path = tmp_path / "tables" / "abc.transcript"
    transcript = Transcript.create(path, table, seat=0)
    log = TableLog(table, seat_order([0, 1]))
    log.on_applied(transcript.append_applied)
    for n in range(4):
        envelope = log.author(ids[n % 2], n % 2, "move", {"n": n, "b": b"\n" * n})
        if n % 2 == 0:
            transcript.append_signed(envelope)
        log.receive(envelope)
    transcript.close()
    as_windows_stats(path)  # a transcript's mode is not checked on reading, on any system
    again, contents = Transcript.reopen(path)
    again.close()
    assert [e.signed for e in contents.applied] == [e.signed for e in log.entries]
    assert len(load_transcript(path).signed) == 2
    if system != "windows":
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_fault_evidence_is_appended(system: str, tmp_path: Path) -> None:
    table, ids = roster(2)
    envelope = TableLog(table, seat_order([0, 1])).author(ids[0], 0, "move", {})
    failures: list[object] = []
    evidence = EvidenceFile(tmp_path / "abc.transcript", failures.append)
    evidence.keep(0, "equivocation", "two moves", [envelope])
    evidence.keep(1, "bad chain", "a fork", [envelope])
    assert failures == [] and evidence.path.stat().st_size > 0


# -- processes ------------------------------------------------------------------------------


def test_peak_memory_is_measured_where_the_system_can(system: str) -> None:
    peak = platform.current().peak_rss_mb()
    if system == "windows":
        assert peak is None
    else:
        assert peak is not None and peak > 0


def test_peak_memory_is_counted_in_kib_on_linux_and_in_bytes_on_macos() -> None:
    linux = dataclasses.replace(platform.LINUX, max_rss=lambda: 3 * 1024)
    macos = dataclasses.replace(platform.MACOS, max_rss=lambda: 3 * 2**20)
    assert linux.peak_rss_mb() == macos.peak_rss_mb() == 3.0


async def test_a_simulation_plays_under_each_system(system: str, tmp_path: Path) -> None:
    """`fairdeal simulate`'s side (the identities, the plan, its peers started, reaped and
    summed up) under each system's semantics; the peers are processes of this machine."""
    simulation = Simulation(2, tmp_path / "sim", short=True, timeout=240)
    summary = await simulation.run()
    assert summary["result"] == "finished" and summary["agree"], summary
    reports, disagreement = audit_many(simulation.transcripts())
    assert disagreement is None and all(r.verified for r in reports)


def test_a_simulated_peer_starts_without_the_resource_module() -> None:
    """Windows has no `resource`: a peer process must not need it to start."""
    script = (
        "import sys; sys.modules['resource'] = None\n"
        "from fairdeal.p2p import platform\n"
        "import fairdeal.p2p.table.tools.sim_peer, fairdeal.p2p.table.tools.simulate\n"
        "print(platform.WINDOWS.peak_rss_mb())\n"
    )
    run = subprocess.run(
        [sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "None"


# -- nothing else asks -----------------------------------------------------------------------

PACKAGE_FOLDERS = ("engine", "p2p", "ui", "fairdeal", "bench")
# Asking which system this is, and what only POSIX has (a Windows laptop at the table cannot
# start fairdeal when a path it runs calls one of these).
ASKING = re.compile(r"\bsys\.platform\b|\bos\.name\b|\bplatform\.system\(|\bos\.uname\b")
POSIX_ONLY = re.compile(
    r"\bfchmod\b|\bfchown\b|^\s*(import|from) (resource|termios|tty|fcntl|pwd|grp|pty)\b"
    r"|\bgetrusage\b|\badd_signal_handler\b"
    r"|\badd_reader\b|\badd_writer\b|\bsignal\.SIG|\bos\.kill\b|\bkillpg\b|\bos\.O_[A-Z]"
    r"|\bos\.getuid\b|\bos\.geteuid\b|\bos\.fork\b",
    re.MULTILINE,
)


def offending_lines(pattern: re.Pattern[str]) -> list[str]:
    found = []
    for folder in PACKAGE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "p2p" / "platform.py":
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_nothing_outside_the_platform_module_asks_which_system_it_is() -> None:
    assert offending_lines(ASKING) == []


def test_nothing_outside_the_platform_module_calls_what_only_posix_has() -> None:
    assert offending_lines(POSIX_ONLY) == []


def test_the_patterns_catch_what_they_look_for() -> None:
    samples = [
        "if sys.platform == 'win32':",
        "os.name == 'nt'",
        "os.fchmod(fd, 0o600)",
        "import resource",
        "    from fcntl import flock",
        "loop.add_signal_handler(signal.SIGTERM, stop)",
        "fd = os.open(folder, os.O_RDONLY)",
    ]
    assert all(ASKING.search(s) or POSIX_ONLY.search(s) for s in samples)
