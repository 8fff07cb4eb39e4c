"""A watcher's screen is a watcher's (protocol.md 4.8): it follows the table through a seat it
does not play, so its hint never prompts that seat's moves ("YOUR TURN", "place it") nor offers
a new game, and a doubt involving that seat closes by itself instead of waiting for a key while
the game goes on. A replay of one's own transcript keeps its seat's hints."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.tools.replay import load_replay
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.lie.widgets.hand import LieHandView
from fairdeal.ui.games.lie.widgets.players import LiePlayersView
from fairdeal.ui.replay_app import ReplayApp

from .support import static_text
from .test_replay import SIZE, owner_copy, replay_screen_of, settle


def hint_of(app: ReplayApp, game: str) -> str:
    hint = replay_screen_of(app).query_one("#hint" if game == "larry" else "#lie-hint")  # type: ignore[arg-type]
    return " ".join(static_text(hint, SIZE[0]).split())  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["larry", "lie"])
async def test_a_watchers_hint_names_the_mover_and_never_prompts_the_seat(
    game: str, tmp_path: Path
) -> None:
    replay = load_replay(owner_copy(game, tmp_path, secrets=False), None)
    replay.live = True  # as p2p.table.tools.watch makes it: the log still grows
    turns = [i for i, f in enumerate(replay.frames) if f.view is not None and f.view.my_turn]
    assert turns
    for position, done in ((turns[0], False), (len(replay.frames) - 1, True)):
        app = ReplayApp(replay, position)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            hint = hint_of(app, game)
            assert hint.startswith("Watching:"), hint
            assert "YOUR TURN" not in hint and "new game" not in hint and "place" not in hint
            assert ("game is over" in hint) is done
            if game == "lie" and not done:  # the hand below is the watched seat's, by name
                screen = replay_screen_of(pilot)
                players = static_text(screen.query_one(LiePlayersView), SIZE[0])
                assert "your hand" not in players and "(hand below)" in players
                title = str(screen.query_one(LieHandView).border_title)
                assert title.startswith(f"{replay.names[replay.seat]}'s hand"), title
            if not done:
                seat = replay.frames[position].view.state.to_act()
                mover = "the table plays on" if seat is None else f"{replay.names[seat]} to move"
                assert mover in hint, hint


async def test_a_doubt_of_the_watched_seat_closes_by_itself(tmp_path: Path) -> None:
    replay = load_replay(owner_copy("larry", tmp_path, secrets=False), None)
    replay.live = True
    doubts = [
        i
        for i, frame in enumerate(replay.frames)
        for event in frame.events
        if isinstance(event, DoubtVerification)
        and replay.seat in (event.doubter, event.last_player)
    ]
    assert doubts
    app = ReplayApp(replay, doubts[0] - 1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        replay_screen_of(pilot).follow_to(doubts[0])  # the watcher's screen moves on
        await settle(pilot)
        for _ in range(50):
            if isinstance(app.screen, DoubtScreen):
                break
            await pilot.pause()
        assert isinstance(app.screen, DoubtScreen)
        assert app.screen.linger is not None  # it closes by itself: the game goes on
