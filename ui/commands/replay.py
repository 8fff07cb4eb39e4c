"""`fairdeal replay TRANSCRIPT [--data-dir DIR] [--plain]`: a game again, step by step.

The transcript is audited first (as `fairdeal audit` does, in the same pass): a file that does
not verify opens nothing but the audit's fault (exit 1). Then the app steps through the game as
the file's owner saw it (← → a step, PgUp PgDn a hand, trick or round, Home End), its own hand
included when the data directory holds the seat's secrets (default: the directory holding
tables/TRANSCRIPT, or the transcript's own directory); `--plain` prints the same story as text.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairdeal.ui.launch import AppRunner


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    parser.add_argument("transcript", type=Path, metavar="TRANSCRIPT", help="a table's transcript")
    options.add_data_dir(
        parser,
        "the owner's secrets, to show its own hand (default: the directory holding "
        "tables/TRANSCRIPT, else the transcript's directory)",
    )
    parser.add_argument("--plain", action="store_true", help="print the story as text")


def run(args: argparse.Namespace, runner: AppRunner | None = None) -> int:
    from fairdeal.p2p.table.tools.replay import CannotReplay, data_directory, load_replay
    from fairdeal.ui.commands.audit import unreadable

    why = unreadable(args.transcript)
    if why is not None:
        print(f"fairdeal replay: {args.transcript}: cannot read: {why}", file=sys.stderr)
        return 2
    try:
        replay = load_replay(args.transcript, data_directory(args.transcript, args.data_dir))
    except CannotReplay as error:
        print(f"fairdeal replay: {error}", file=sys.stderr)
        return 1
    if replay.fault is not None:
        print(f"{args.transcript}: {replay.fault.verdict}: {replay.fault}", file=sys.stderr)
        return 1
    if args.plain:
        from fairdeal.ui.replay_story import story

        for line in story(replay):
            print(line)
        verdict = "verified so far" if replay.report.incomplete else "verified"
        print(f"{args.transcript}: {verdict}: {replay.report.result_text()}")
        return 0
    if runner is None and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "fairdeal replay: the replay screen needs a terminal (or use --plain)", file=sys.stderr
        )
        return 1
    from fairdeal.ui.replay_app import ReplayApp

    app = ReplayApp(replay)
    (runner or ReplayApp.run)(app)
    return 0
