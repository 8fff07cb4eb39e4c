"""Where a replay stands, in one line: the bar above a replay's table screen
(ui/screens/replay.py) and the heading of each step of its story (ui/replay_story.py). Text
only: the story imports it without the screens."""

from __future__ import annotations

from fairdeal.p2p.table.tools.replay import Replay
from fairdeal.ui.screen_game import screen_game


def bar_text(replay: Replay, position: int) -> str:
    """Where the replay stands: step, hand/round (trick), whose step, whose eyes."""
    frame = replay.frames[position]
    round_name = screen_game(replay.game).unit
    where = f"{round_name} {frame.round}" if frame.round else "setup"
    if frame.trick:
        where += f", trick {frame.trick}"
    by = ", ".join(replay.names[s] for s in frame.authors) or "—"
    if replay.live:
        eyes = f"public cards only, through {replay.names[replay.seat]}"
        what = "WATCHING ✓ verified so far"
    else:
        eyes = (
            f"as {replay.names[replay.seat]} saw it"
            if replay.own_eyes
            else f"public cards only (no secrets of {replay.names[replay.seat]} here)"
        )
        what = "REPLAY ✓ audited"
    return (
        f"{what} · step {position + 1}/{len(replay.frames)} · {where} · "
        f"entry {frame.entry} · by {by} · {eyes}"
    )
