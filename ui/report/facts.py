"""What two friends compare to know they hold the same transcript: its name, size and SHA-256."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileFacts:
    """What two friends compare to know they hold the same file."""

    path: Path
    size: int
    sha256: str


def file_facts(path: Path) -> FileFacts:
    with open(path, "rb") as file:
        digest = hashlib.file_digest(file, "sha256").hexdigest()
    return FileFacts(path, path.stat().st_size, digest)
