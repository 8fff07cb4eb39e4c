"""`fairdeal report TRANSCRIPT [-o FILE.html] [--public] [--force] [--data-dir DIR]`: one
self-contained HTML page saying what the audit of the transcript proved (ui/report/).

The page is written beside the transcript (TABLE.html) unless `-o` says where; an existing file
is kept unless `--force`. It says the verdict first. Exit 0 when the transcript verifies (a log
that stops mid-game "verified so far", as `fairdeal audit` says); 1 when it does not (the page
is written and says NOT verified and why), when the file is not a transcript at all (one line,
no page) or when the output exists; 2 when the transcript cannot be read."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    parser.add_argument("transcript", type=Path, metavar="TRANSCRIPT", help="a table's transcript")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        metavar="FILE.html",
        help="where to write the page (default: beside the transcript, TABLE.html)",
    )
    parser.add_argument(
        "--public",
        action="store_true",
        help="leave every private card out (only what a watcher could see), for sharing",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing page")
    options.add_data_dir(
        parser,
        "the owner's secrets, to show its own hand (default: the directory holding "
        "tables/TRANSCRIPT, else the transcript's directory)",
    )


def run(args: argparse.Namespace) -> int:
    from fairdeal.p2p.table.tools.replay import CannotReplay, data_directory
    from fairdeal.ui.commands.audit import unreadable
    from fairdeal.ui.report.verdict import verdict_words
    from fairdeal.ui.report.write import ReportExists, write_report

    why = unreadable(args.transcript)
    if why is not None:
        print(f"fairdeal report: {args.transcript}: cannot read: {why}", file=sys.stderr)
        return 2
    try:
        replay, written = write_report(
            args.transcript,
            args.output,
            data_directory(args.transcript, args.data_dir),
            public=args.public,
            force=args.force,
        )
    except (CannotReplay, ReportExists) as error:
        print(f"fairdeal report: {error}", file=sys.stderr)
        return 1
    print(f"{written}: {verdict_words(replay)}")
    return 0 if replay.fault is None else 1
