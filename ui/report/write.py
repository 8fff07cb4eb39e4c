"""Writing a report page where it belongs: beside its transcript unless told otherwise, never
over an existing file unless told to, and in one piece (a reader never sees half a page)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from fairdeal.p2p.table.tools.replay import Replay
from fairdeal.ui.report.build import make_report


class ReportExists(Exception):
    """The output file exists and was not to be overwritten."""


def default_output(transcript: Path) -> Path:
    """Beside the transcript: TABLE.transcript → TABLE.html."""
    return transcript.with_suffix(".html")


def write_report(
    transcript: Path,
    output: Path | None = None,
    data: Path | None = None,
    *,
    public: bool = False,
    force: bool = False,
) -> tuple[Replay, Path]:
    """Audit `transcript` and write its page to `output` (default: beside it). ReportExists
    before any work when `output` exists and not `force`; CannotReplay for a file that is not a
    transcript (no page); OSError when the page cannot be written."""
    target = output or default_output(transcript)
    if target.exists() and target.resolve() == transcript.resolve():
        raise ReportExists(f"{target} is the transcript itself: the page goes elsewhere")
    if target.exists() and not force:
        raise ReportExists(f"{target} exists (--force to overwrite it)")
    replay, page = make_report(transcript, data, public)
    folder = target.parent
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(page)
        os.chmod(temporary, 0o644)  # a page to share, unlike the transcript beside it
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return replay, target


def write_transcript_page(transcript: Path, data: Path | None = None) -> str:
    """The app's `fairness page` (past tables, the end of a game): the page written beside the
    transcript, replaced if it is there (it is made of the transcript alone), with the owner's
    hand when `data` (default: the data directory holding tables/TRANSCRIPT) has its secrets;
    what happened, in one line."""
    from fairdeal.p2p.errors import P2PError
    from fairdeal.p2p.table.tools.replay import data_directory
    from fairdeal.ui.report.verdict import verdict_words

    try:
        replay, written = write_report(
            transcript, data=data_directory(transcript, data), force=True
        )
    except (P2PError, OSError) as error:  # not a transcript, a full or read-only disk
        return f"✗ No fairness page: {error}"
    return f"{verdict_words(replay)}: fairness page written to {written}"
