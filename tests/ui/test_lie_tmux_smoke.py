"""`fairdeal play --game lie` in a real terminal: tmux at 80×24, grab cards, play a trick, quit.

Like test_tmux_smoke.py: a throw-away data directory, the screen polled through tmux (never a
fixed sleep as synchronisation), a clean quit with q and exit status 0. The bots are fast here
(--pace, --bot-delay) so the test is short; the seed makes the deal repeatable.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .terminal import Terminal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)"),
]

DEADLINE_S = 40.0


def held(screen: str) -> int:
    found = re.search(r"Your hand (\d+)/12", screen)
    return int(found.group(1)) if found else -1


def test_play_the_lie_in_a_real_terminal(tmp_path: Path) -> None:
    play = "play --game lie --players 3 --seed 5 --pace 0.05 --bot-delay 0.05 --no-discovery"
    terminal = Terminal(tmp_path, play, DEADLINE_S)
    wait, keys = terminal.wait, terminal.keys
    try:
        screen = wait(lambda s: "Phase 1: everyone grabs" in s and "Take" in s, "Phase 1")
        assert all(len(line) <= 80 for line in screen.splitlines())
        while "Phase 2" not in screen:  # take a card, see it, place it (T3), until full
            count = held(screen)
            if "place the" in screen:
                keys("Right" if count % 2 else "a")
                screen = wait(lambda s: "place the" not in s, "the card placed")
            else:
                keys("Enter")
                screen = wait(
                    lambda s, c=count: held(s) > c or "place the" in s or "Phase 2" in s,
                    "a card taken",
                )
        wait(lambda s: "YOUR" in s, "our go in the first trick")
        while True:  # play (or pass, with no legal play) until a trick is won
            screen = terminal.pane()
            if "wins the trick" in screen:
                break
            if "YOUR" in screen:
                keys("Tab", "Enter") if "legal play" not in screen else keys("p")
            wait(lambda s: "YOUR" not in s or "wins the trick" in s or "✗" in s, "the go")
            if "✗" in terminal.pane():
                keys("p")
        keys("q")
        assert terminal.exit_status() == "0"
    finally:
        terminal.close()
