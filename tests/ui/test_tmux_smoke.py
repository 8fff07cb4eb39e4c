"""The README's first command, in a real terminal: tmux at 80×24, a few keystrokes, a clean quit.

It runs the final part of that command (`fairdeal play`, here `python -m fairdeal play` from this
checkout) with a throw-away data directory, waits for the screen to show what a player needs
(polling tmux's pane, never a fixed sleep as synchronisation), plays, and quits with q. A second
test plays the reported case (a gloat face-up under the obligation) and sees it refused.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .terminal import Terminal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)"),
]

DEADLINE_S = 30.0


def flat(screen: str) -> str:
    """The screen's text with line breaks and runs of spaces folded (hints wrap)."""
    return " ".join(screen.split())


def test_the_obligation_case_is_refused_not_a_cheat(tmp_path: Path) -> None:
    """`fairdeal play --players 2 --seed 2`, `1 Enter Enter`
    twice, then `2 u` (a gloat under the face-up obligation while holding numbers): the app
    refuses it with the reason and the ruling; no FAULT, nothing revealed, the game goes on."""
    terminal = Terminal(tmp_path, "play --players 2 --seed 2 --bot-delay 0", DEADLINE_S)
    try:
        for _ in range(2):
            terminal.wait(lambda s: "YOUR TURN" in s and "q Quit" in s, "our turn")
            terminal.keys("1", "Enter")
            terminal.wait(lambda s: "The honest total is" in s, "the announce dialog")
            terminal.keys("Enter")
            terminal.wait(lambda s: "The honest total is" not in s, "the dialog to close")
        terminal.wait(lambda s: "must play face-up" in flat(s), "the face-up obligation (L12)")
        terminal.keys("2", "u")
        screen = terminal.wait(lambda s: "Not allowed" in s, "the refusal")
        text = flat(screen)
        assert "gloat" in text and "(L12)" in text, screen
        assert "FAULT" not in screen and "claimed" not in screen  # no cheat, no hand revealed
        terminal.keys("q")  # a local table: nobody waits, it quits at once
        assert terminal.exit_status() == "0"
    finally:
        terminal.close()


def test_play_in_a_real_terminal(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "play", DEADLINE_S)
    try:
        screen = terminal.wait(lambda s: "YOUR TURN" in s and "q Quit" in s, "the first turn")
        assert "Seats" in screen and "Limit" in screen and "q Quit" in screen
        assert all(len(line) <= 80 for line in screen.splitlines())
        terminal.keys("Enter")  # play the selected card face-down …
        terminal.wait(lambda s: "The honest total is" in s, "the announce dialog")
        # Seat 0 starts hand 1 (L5) on an empty pile, so the honest total is within the limit.
        terminal.keys("Enter")
        # Our move is in the log at once; the bots' moves may push it out of the log's few rows
        # before our turn comes again (a deal of face-up 'pick up 2's takes six rows).
        terminal.wait(lambda s: "played a card face-down and said" in s, "our move in the log")
        terminal.wait(lambda s: "YOUR TURN" in s and "Announced" in s, "the bots to play round")
        terminal.keys("?")
        terminal.wait(lambda s: "Larry: keys and rules" in s, "the help screen")
        terminal.keys("Escape")
        terminal.wait(lambda s: "YOUR TURN" in s, "the table again")
        terminal.keys("q")
        assert terminal.exit_status() == "0"
    finally:
        terminal.close()
