"""The `fairdeal` command line: one subcommand per module in `fairdeal.ui.commands`.

Each subcommand module is imported only when it is chosen, so `fairdeal selfplay` never pays for
Textual and `fairdeal tables` never pays for the rules engine.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import types
from collections.abc import Sequence

import fairdeal

# name -> (module under fairdeal.ui.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "play Larry or The Lie (--game lie) in this terminal against local bots"),
    "selfplay": ("selfplay", "play many bot games with the oracle driver and print statistics"),
    "scenario": ("scenario", "run a scenario file and report pass or fail"),
    "tables": ("tables", "list the fairdeal tables found on the network"),
    "host": ("host", "open a Larry table on the LAN and fill seats with bot peers"),
    "bot": ("bot", "join a Larry table on the LAN as a bot"),
    "simulate": ("simulate", "play a game between bot peers in separate processes over loopback"),
    "audit": ("audit", "verify Larry transcripts offline and print the result"),
    "resume": ("resume", "reopen the app at your seat of a networked table after a crash"),
}

DEFAULT_COMMAND = "play"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fairdeal",
        description="Larry and The Lie across laptops on one network, with no dealer.",
    )
    parser.add_argument("--version", action="version", version=f"fairdeal {fairdeal.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(_module=module_name)
        _command_module(module_name).configure(sub_parser)
    return parser


def _command_module(module_name: str) -> types.ModuleType:
    return importlib.import_module(f"fairdeal.ui.commands.{module_name}")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        args_list = [DEFAULT_COMMAND]
    args = build_parser().parse_args(args_list)
    if args.command is None:
        build_parser().print_help()
        return 2
    return int(_command_module(args._module).run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
