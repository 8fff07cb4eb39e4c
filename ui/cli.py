"""The `fairdeal` command line: one subcommand per module in `fairdeal.ui.commands`.

A module may define `check(args) -> str | None` for the errors only a combination of arguments
shows; they are reported like any argument error, before the command runs (ui/commands/options.py).

Each subcommand module is imported only when it is chosen, so `fairdeal selfplay` never pays for
Textual and `fairdeal tables` never pays for the rules engine.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys
import types
from collections.abc import Sequence

import fairdeal
from fairdeal.p2p.errors import P2PError

# name (of its module under fairdeal.ui.commands) -> one-line help; in the help, {games} is the
# games' titles ("A or B"), {other} the name of a game other than the default (engine/games.py)
COMMANDS: dict[str, str] = {
    "play": "play {games} (--game {other}) in this terminal",
    "selfplay": "play many bot games with the oracle driver and print statistics",
    "scenario": "run a scenario file and report pass or fail",
    "tables": "list the fairdeal tables found on the network",
    "host": "open a table of {games} on the LAN and fill seats with bot peers",
    "bot": "join a table ({games}) on the LAN as a bot",
    "simulate": "play a game between bot peers in separate processes over loopback",
    "audit": "verify transcripts ({games}) offline and print the result",
    "replay": "step through a transcript's game ({games}) after auditing it",
    "report": "write one HTML page saying what the audit of a transcript proved",
    "watch": "follow a table you have no seat at (HOST:PORT of a seated peer)",
    "resume": "reopen the app at your seat of a networked table after a crash",
}

DEFAULT_COMMAND = "play"
BROKEN_PIPE_STATUS = 141
"""Exit status when the reader of our output went away: 128 + SIGPIPE, as a shell reports it."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fairdeal",
        description=f"{_titles(' and ')} across laptops on one network, with no dealer.",
    )
    parser.add_argument("--version", action="version", version=f"fairdeal {fairdeal.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    words = {"games": _titles(" or "), "other": _other_game()}
    for name, help_text_of in COMMANDS.items():
        help_text = help_text_of.format(**words)
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(command_parser=sub_parser)  # its usage goes with its errors
        _command_module(name).configure(sub_parser)
    return parser


def _titles(joined: str) -> str:
    from fairdeal.engine.games import game_names, get_game

    return joined.join(get_game(name).title for name in game_names())


def _other_game() -> str:
    from fairdeal.engine.games import game_names

    names = game_names()
    return names[1] if len(names) > 1 else names[0]


def _command_module(name: str) -> types.ModuleType:
    return importlib.import_module(f"fairdeal.ui.commands.{name}")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        args_list = [DEFAULT_COMMAND]
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    module = _command_module(args.command)
    check = getattr(module, "check", None)  # errors only a combination of arguments shows
    problem = check(args) if check is not None else None
    if problem:
        args.command_parser.error(
            problem
        )  # usage and the problem on stderr, exit 2: before any app
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        print(f"fairdeal {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # whoever read our output stopped (`| head`): nothing is wrong, nothing more to say
        _quiet_stdout()
        return BROKEN_PIPE_STATUS
    except (P2PError, OSError) as error:  # bad files, a full or read-only disk, no answer
        print(f"fairdeal {args.command}: {explain(error)}", file=sys.stderr)
        return 1


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises nothing more."""
    import os

    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test's capture)
        pass


def explain(error: BaseException) -> str:
    """One line for a player: what went wrong, with which file, and what to do."""
    if isinstance(error, TimeoutError):
        return f"timed out{': ' + str(error) if str(error) else ''} (is the other side there?)"
    if not isinstance(error, OSError):
        return str(error)
    where = f" {error.filename}" if error.filename else ""
    if error.errno == errno.ENOSPC:
        return (
            f"no space left on the disk holding{where or ' the data directory'}: what was "
            "written is kept; free some space, then run the same command again (or "
            "`fairdeal resume TRANSCRIPT`) to take your seat back"
        )
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return (
            f"cannot write{where}: {error.strerror} (a read-only data directory? "
            "choose another with --data / --data-dir)"
        )
    return f"{error.strerror or error}{':' + where if where else ''}"


if __name__ == "__main__":
    sys.exit(main())
