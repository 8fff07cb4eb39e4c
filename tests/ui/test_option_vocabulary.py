"""One name per meaning in every command: the seat count is `--seats`, discovery off is
`--no-mdns`, the machine's address is `--bind`, the bots' kinds are `--bot-kind KIND[,KIND…]`
with one default; each command's help shows only these, and the older spellings (`--players`,
`--peers`, `--no-discovery`, `--interface`, selfplay's `--bots KIND`) still parse, hidden."""

from __future__ import annotations

import argparse
import re

import pytest

from fairdeal.ui.cli import build_parser


def subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


def shown_options(name: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", subparser(name).format_help()))


SEATED = ["play", "selfplay", "host", "simulate"]
OLD = {"--players", "--peers", "--no-discovery", "--interface", "--bot", "--data"}


@pytest.mark.parametrize("command", SEATED)
def test_the_seat_count_is_seats_in_every_command(command: str) -> None:
    shown = shown_options(command)
    assert "--seats" in shown
    assert not shown & OLD, shown & OLD


@pytest.mark.parametrize("command", ["play", "host", "tables", "bot"])
def test_the_address_is_bind_in_every_command(command: str) -> None:
    shown = shown_options(command)
    assert "--bind" in shown and "--interface" not in shown


@pytest.mark.parametrize("command", ["play", "host"])
def test_discovery_off_is_no_mdns(command: str) -> None:
    shown = shown_options(command)
    assert "--no-mdns" in shown and "--no-discovery" not in shown


@pytest.mark.parametrize("command", ["play", "selfplay", "host", "simulate", "bot"])
def test_bot_kind_has_one_default_and_lists_by_seat_where_there_are_several(command: str) -> None:
    text = " ".join(subparser(command).format_help().split())
    assert "--bot-kind" in text and "default heuristic" in text
    if command != "bot":  # `bot` plays one seat
        assert "--bot-kind KIND[,KIND…]" in text


@pytest.mark.parametrize(
    ("argv", "dest", "value"),
    [
        (["play", "--players", "3"], "players", 3),
        (["play", "--seats", "3"], "players", 3),
        (["selfplay", "lie", "--players", "3"], "players", 3),
        (["selfplay", "lie", "--seats", "3"], "players", 3),
        (["simulate", "lie", "--peers", "3", "--out", "x"], "peers", 3),
        (["simulate", "lie", "--seats", "3", "--out", "x"], "peers", 3),
        (["play", "--no-discovery"], "no_mdns", True),
        (["play", "--no-mdns"], "no_mdns", True),
        (["play"], "no_mdns", False),
        (["tables", "--interface", "127.0.0.1"], "interface", ["127.0.0.1"]),
        (["tables", "--bind", "127.0.0.1"], "interface", ["127.0.0.1"]),
        (["selfplay", "lie", "--bots", "heuristic,random"], "bot_kind", "heuristic,random"),
        (["selfplay", "lie"], "bot_kind", "heuristic"),
        (["simulate", "lie", "--bot-kind", "random,heuristic", "--out", "x"], "bot_kind",
         "random,heuristic"),
    ],
)  # fmt: skip
def test_old_and_new_spellings_parse_alike(argv: list[str], dest: str, value: object) -> None:
    args = build_parser().parse_args(argv)
    assert getattr(args, dest) == value


def test_defaults_hold_when_only_the_new_name_exists() -> None:
    args = build_parser().parse_args(["play"])
    assert args.players == 4
    args = build_parser().parse_args(["simulate", "larry", "--out", "x"])
    assert args.peers == 4
