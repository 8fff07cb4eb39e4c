"""`fairdeal play --plain`: the same table in plain text, driven by typed commands."""

from __future__ import annotations

import io

import pytest

from engine import AcceptOut, Doubt, PlayFaceDown, PlayFaceUp
from ui.plain import parse_command, play_plain
from ui.table_factory import TableSpec


def test_commands_parse_into_actions() -> None:
    hand = [10, 11, 12]
    assert parse_command("d", hand) == Doubt()
    assert parse_command("a", hand) == AcceptOut()
    assert parse_command("q", hand) is None
    assert parse_command("p 2 5", hand) == PlayFaceDown(11, 5, False)
    assert parse_command("p 3 -1 larry", hand) == PlayFaceDown(12, -1, True)
    up = parse_command("u 1 2 3", hand)
    assert isinstance(up, PlayFaceUp) and (up.slot, up.target, up.give) == (10, 2, 12)
    for bad in ("", "p", "p 9 1", "x 1 1"):
        with pytest.raises(ValueError):
            parse_command(bad, hand)


def test_a_plain_game_plays_refuses_and_quits() -> None:
    spec = TableSpec(seats=3, bots=2, seed=1, bot_delay=0)
    stdin = io.StringIO("d\np 1 9\np 1 7\nq\n")
    stdout = io.StringIO()
    assert play_plain(spec, stdin, stdout) == 0
    out = stdout.getvalue()
    assert "Not allowed: the pile is empty: nothing to doubt (L7)" in out
    assert "above" in out or "limit" in out  # 9 is above the limit 7 (L6)
    assert "You played a card face-down and said 7." in out
