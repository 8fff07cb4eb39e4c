"""`fairdeal resume TRANSCRIPT [--data-dir DIR] [--bind ADDR]`: back to your seat after a crash.

Reads the transcript of a networked table (the app names it when the table starts), restarts
that seat from the transcript and the secrets in the data directory, listens where the seat
listened, redials the other seats, and opens the app on the table. A transcript that cannot be
resumed (missing, damaged, another identity's, no secrets, a finished game) is a one-line error
naming the file, exit 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairdeal.ui.launch import AppRunner

ANY_ADDRESS = ("0.0.0.0", "")


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    parser.add_argument(
        "transcript",
        type=Path,
        metavar="TRANSCRIPT",
        help="the table's transcript file (the table's log named it when the game began)",
    )
    options.add_data_dir(
        parser,
        "identity and secrets (default: the directory holding tables/TRANSCRIPT, "
        "else the per-user one)",
    )
    options.add_bind(parser)
    options.add_silence_limit(parser, 30.0)


def data_directory(transcript: Path, given: Path | None) -> Path | None:
    """The data directory: as given, else the one the transcript lives in (DATA/tables/X)."""
    if given is not None:
        return given
    if transcript.parent.name == "tables":
        return transcript.parent.parent
    return None


def run(args: argparse.Namespace, runner: AppRunner | None = None) -> int:
    from fairdeal.p2p.table.tools.resume import CannotResume
    from fairdeal.p2p.table.tools.session import NetworkSettings, resume_table, use_settings

    only = None if args.bind in ANY_ADDRESS else (args.bind,)
    settings = NetworkSettings(
        data_dir=data_directory(args.transcript, args.data_dir),
        bind=args.bind,
        interfaces=only,
        advertise=False,
        silence_limit=args.silence_limit,
    )
    from fairdeal.p2p.table.tools.rejoin import leaving_state

    try:
        session = resume_table(args.transcript, settings)
    except CannotResume as error:
        print(f"fairdeal resume: {error}", file=sys.stderr)
        return 1
    # What state the table is in, first in the table's log: printed, it would be hidden behind
    # the full-screen app.
    for said in leaving_state(args.transcript):
        session.notice(f"Resuming: {said}.")
    if runner is None and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("fairdeal resume: the table screen needs a terminal", file=sys.stderr)
        return 1
    from fairdeal.ui.app import FairdealApp
    from fairdeal.ui.player import Player
    from fairdeal.ui.table_finder import FixedFinder

    use_settings(settings)
    identity = session.identity
    app = FairdealApp(
        Player(identity.name, identity.code, identity.fingerprint),
        session=session,
        finder=FixedFinder(),
    )
    (runner or FairdealApp.run)(app)
    return 0
