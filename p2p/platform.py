"""Everything that differs between Linux, macOS and Windows, in one place: nothing else in
fairdeal asks which system it runs on (tests/p2p/test_platform.py greps for it).

* Private files (the identity, the secrets, the transcripts). On POSIX a private file is mode
  0600 in a 0700 folder, and a file whose mode lets others read it is refused. On Windows
  `os.stat` reports 0o666 for every writable file whoever may read it, so a mode says nothing:
  the files live in the per-user data folder (platformdirs: %LOCALAPPDATA%, which only its user
  can read), and Python 3.13 and later also restrict a folder made with mode 0o700 to its user.
  No other check means something there without another dependency (the owner is not in
  `os.stat`), so none is made and nothing is refused (README.md, Platforms).
* Windows opens a file in text mode unless told `O_BINARY`: every newline byte of a msgpack
  record would gain a carriage return.
* fsync: of a file everywhere; of a folder (so that a rename is on disk) on POSIX only, since
  Windows cannot open a folder as a file. `os.replace` is atomic on both; on Windows it is
  refused while another program (an indexer, an antivirus scanner) has the old file open, so a
  refused replace is tried again a few times there.
* A child process is stopped with `Process.kill` (SIGKILL on POSIX, TerminateProcess on
  Windows); no signal is named anywhere.
* Peak memory comes from `resource` on POSIX (KiB on Linux, bytes on macOS); Windows has no
  `resource`, and its peak is not measured (None). CPU time is `time.process_time` everywhere.

`Platform` holds one system's semantics; `current()` is the one this process runs on, chosen once
from `sys.platform`. Tests run the code under another system's semantics with `use`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

if sys.platform == "win32":
    _max_rss: Callable[[], int] | None = None
    _fchmod: Callable[[int, int], None] | None = None
else:

    def _max_rss() -> int:
        import resource  # only when measured: a peer starts without it

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    _fchmod = os.fchmod


class Killable(Protocol):
    """A child process (`asyncio.subprocess.Process` or `subprocess.Popen`)."""

    def kill(self) -> None: ...


@dataclass(frozen=True)
class Platform:
    """One system's semantics for the few things that differ."""

    name: str
    modes_are_private: bool  # a mode's group and other bits say who else can read a file
    set_mode: Callable[[int, int], None] | None  # os.fchmod where it means something
    sync_folders: bool  # a folder can be opened and fsynced (so a rename is durable)
    binary_flag: int  # added to os.open's flags so that bytes are written as they are
    max_rss: Callable[[], int] | None  # getrusage's ru_maxrss, where there is one
    rss_unit: int  # bytes per unit of `max_rss`
    # Seconds to wait before each new try of a replace refused with PermissionError: on Windows
    # a file that another program (an indexer, an antivirus scanner) holds open for a moment
    # cannot be replaced; on POSIX a refusal is the folder's permissions, and final.
    replace_waits: tuple[float, ...] = ()

    # -- private files -----------------------------------------------------------------------

    def private_folder(self, folder: Path) -> None:
        """Make `folder` (and its parents) if missing: mode 0700 on POSIX; on Windows the mode
        restricts it to its user from Python 3.13 (older ones ignore it)."""
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)

    def open_private(self, path: Path, flags: int) -> int:
        """os.open for writing a private file: readable and writable by its owner only (0600,
        whatever the umask, and made so again if an older version wrote it wider)."""
        fd = os.open(path, flags | self.binary_flag, 0o600)
        try:
            if self.set_mode is not None:
                self.set_mode(fd, 0o600)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def privacy_problem(self, path: Path, info: os.stat_result) -> str | None:
        """Why the file at `path` is not private, or None. Only POSIX modes can say so."""
        mode = stat.S_IMODE(info.st_mode)
        if self.modes_are_private and mode & 0o077:
            return f"{path} is readable by other users (mode {mode:o}); run `chmod 600 {path}`"
        return None

    # -- durability --------------------------------------------------------------------------

    def sync_folder(self, folder: Path) -> None:
        """fsync a folder, so that a file renamed into it stays there after a crash (POSIX;
        on Windows the rename is written through by the file system and cannot be synced)."""
        if not self.sync_folders:
            return
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def replace_file(self, path: Path, data: bytes) -> None:
        """Atomically replace `path` with `data`, private and synced to disk: a crash leaves
        the old file or the new one, never a mix."""
        tmp = path.with_name(path.name + ".tmp")
        fd = self.open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        for wait in self.replace_waits:
            try:
                os.replace(tmp, path)
                break
            except PermissionError:
                time.sleep(wait)  # another program has the old file open for a moment
        else:
            os.replace(tmp, path)  # the last try: its error is the caller's
        self.sync_folder(path.parent)

    # -- processes ---------------------------------------------------------------------------

    def kill(self, process: Killable) -> None:
        """Stop a child at once (SIGKILL on POSIX, TerminateProcess on Windows: both what
        `kill` does), e.g. a simulated peer killed mid-hand."""
        process.kill()

    def peak_rss_mb(self) -> float | None:
        """This process's peak resident memory in MiB, or None where it is not measured."""
        if self.max_rss is None:
            return None
        return self.max_rss() * self.rss_unit / 2**20


LINUX = Platform("linux", True, _fchmod, True, 0, _max_rss, 1024)
MACOS = Platform("macos", True, _fchmod, True, 0, _max_rss, 1)
WINDOWS = Platform(
    "windows", False, None, False, getattr(os, "O_BINARY", 0), None, 1, (0.01, 0.03, 0.1, 0.3)
)


def _this_system() -> Platform:
    if sys.platform == "win32":
        return WINDOWS
    if sys.platform == "darwin":
        return MACOS
    return LINUX


_current = _this_system()


def current() -> Platform:
    """The semantics of the system this process runs on (or of the one a test chose)."""
    return _current


@contextlib.contextmanager
def use(platform: Platform) -> Iterator[Platform]:
    """Run under `platform`'s semantics until the block ends (tests of the other systems'
    branches, without pretending `sys.platform` is something else)."""
    global _current
    previous, _current = _current, platform
    try:
        yield platform
    finally:
        _current = previous


def open_private_file(path: Path, *, append: bool = False) -> BinaryIO:
    """Open `path` for writing as a private file. A new file (append=False) must not exist."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_EXCL)
    fd = current().open_private(path, flags)
    try:
        return os.fdopen(fd, "ab" if append else "wb")
    except BaseException:
        os.close(fd)
        raise
