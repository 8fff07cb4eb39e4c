"""Chromium, headless, for the tests that look at a page as a browser renders it (`fairdeal
report`): a screenshot and the DOM after the page's own script ran. Debian's `chromium` (.ci/run
installs it); without it the tests skip, saying so."""

from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium() -> str:
    """The browser's path, or the test skips with the reason."""
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium on PATH (Debian: apt-get install chromium; .ci/run installs it)")


def _run(page: Path, *flags: str) -> subprocess.CompletedProcess[bytes]:
    with tempfile.TemporaryDirectory() as profile:  # no state shared with another run
        return subprocess.run(
            [
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                *flags,
                page.resolve().as_uri(),
            ],
            capture_output=True,
            timeout=120,
            check=True,
        )


def screenshot(page: Path, png: Path, size: tuple[int, int] = (900, 1200)) -> bytes:
    _run(page, f"--screenshot={png}", f"--window-size={size[0]},{size[1]}")
    return png.read_bytes()


def dump_dom(page: Path) -> str:
    return _run(page, "--dump-dom").stdout.decode("utf-8")


def colours(png: bytes, rows: int = 300) -> set[bytes]:
    """The distinct pixel colours of the PNG's first `rows` rows (8-bit RGB or RGBA, not
    interlaced: what Chromium writes), decoded with the standard library alone."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, width, height, pixel = 8, b"", 0, 0, 0
    while at < len(png):
        (length,) = struct.unpack_from(">I", png, at)
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour)
            pixel = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += data
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * pixel
    previous = bytearray(stride)
    seen: set[bytes] = set()
    for y in range(min(rows, height)):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - pixel] if x >= pixel else 0
            up = previous[x]
            corner = previous[x - pixel] if x >= pixel else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + best) & 0xFF
        seen.update(bytes(line[x : x + pixel]) for x in range(0, stride, pixel))
        previous = line
    return seen
