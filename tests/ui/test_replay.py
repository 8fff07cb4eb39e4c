"""`fairdeal replay`: a transcript audited, then stepped through as its owner saw it.

The games are transcripts recorded by `fairdeal simulate` (tests/ui/replays/README.md: a Larry
short game at 4 seats and a one-round Lie at 3 seats with hands of 4, seat 1's transcript and
secrets each), so the snapshots do not depend on the timing of a live table.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.tools.replay import load_replay
from fairdeal.ui.cli import main
from fairdeal.ui.games.larry.replay import LarryReplayScreen
from fairdeal.ui.games.lie.replay import LieReplayScreen
from fairdeal.ui.replay_app import ReplayApp
from fairdeal.ui.screens.replay import replay_screen
from fairdeal.ui.widgets.game_log import GameLog
from tests.game.records import read_records, write_records

from .support import static_text

REPLAYS = Path(__file__).parent / "replays"
SIZE = (100, 32)


def owner_copy(game: str, tmp_path: Path, secrets: bool = True) -> Path:
    """The game's transcript (and the owner's secrets, 0600 as a data directory keeps them)."""
    directory = tmp_path / game
    directory.mkdir()
    shutil.copy(REPLAYS / game / "table.transcript", directory)
    if secrets:
        shutil.copy(REPLAYS / game / "secrets", directory)
        (directory / "secrets").chmod(0o600)
    return directory / "table.transcript"


async def settle(pilot: Pilot[None]) -> None:
    """Until the replay screen has shown every event its session holds (no sleeping)."""
    for _ in range(400):
        await pilot.pause()
        screen = replay_screen_of(pilot)
        if screen.events_seen >= len(screen.session.history):
            return
    raise AssertionError("the replay screen never caught up")


def replay_screen_of(pilot: Pilot[None]) -> LarryReplayScreen | LieReplayScreen:
    """The replay's screen, under whatever view (scores, a doubt) is open over it."""
    screens = pilot.app.screen_stack
    return next(s for s in reversed(screens) if isinstance(s, LarryReplayScreen | LieReplayScreen))


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


# -- the replay itself ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_a_replay_through_the_owners_eyes_shows_its_hand_and_no_other(
    game: str, tmp_path: Path
) -> None:
    replay = load_replay(owner_copy(game, tmp_path), tmp_path / game)
    assert replay.fault is None and replay.own_eyes
    assert replay.report.over
    public = load_replay(replay.path, None)  # audited once: every frame asks it
    ever_own: set[int] = set()  # a card it gave away (L11) it knows in the receiver's hand
    for frame in replay.frames:
        view = frame.view
        if view is None:
            continue
        state = view.state
        ever_own |= set(state.hands[1])
        others = {s for seat, hand in enumerate(state.hands) if seat != 1 for s in hand}
        for slot in others & set(view.knowledge):
            allowed = ever_own | public_slots(public, frame)
            assert slot in allowed, f"a front of another seat's hand: {slot}"
    last = replay.frames[-1].view
    assert last.state.over


def public_slots(public, frame) -> set[int]:  # type: ignore[no-untyped-def]
    """Slots an observer (the replay `public`, without secrets) knows at the point of `frame`:
    the public cards."""
    index = next(i for i, f in enumerate(public.frames) if f.entry >= frame.entry)
    return set(public.frames[index].view.knowledge)


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_without_the_secrets_only_public_cards_show(game: str, tmp_path: Path) -> None:
    own = load_replay(owner_copy(game, tmp_path), tmp_path / game)
    public = load_replay(own.path, None)
    assert public.fault is None and not public.own_eyes
    assert public.frames[-1].entry == own.frames[-1].entry
    seen_own = seen_public = 0
    for frame in own.frames:
        match = [f for f in public.frames if f.entry == frame.entry]
        if not match or frame.view is None:
            continue
        hand = set(frame.view.state.hands[1])
        seen_own += len(hand & set(frame.view.knowledge))
        seen_public += len(hand & set(match[0].view.knowledge))
        assert set(match[0].view.knowledge) <= set(frame.view.knowledge)
    assert seen_own > seen_public  # the owner's eyes show its hand; the observer's do not


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_the_replay_steps_are_the_audits_entries_in_order(game: str, tmp_path: Path) -> None:
    replay = load_replay(owner_copy(game, tmp_path), tmp_path / game)
    entries = [frame.entry for frame in replay.frames]
    assert entries == sorted(entries) and entries[-1] == replay.report.entries
    states = [e for f in replay.frames for e in f.events if isinstance(e, StateChanged)]
    assert states[-1].state.over
    marks = replay.marks(fine=game == "lie")
    assert marks[0] == 0 and marks == sorted(set(marks))
    if game == "lie":
        assert len(marks) > 2  # tricks


def tampered(game: str, tmp_path: Path) -> Path:
    """One applied envelope of the middle of the game altered by a byte."""
    path = owner_copy(game, tmp_path)
    records = read_records(path)
    applied = [i for i, r in enumerate(records) if r["k"] == "applied"]
    record = records[applied[len(applied) // 2]]
    data = bytearray(record["d"])
    data[-1] ^= 1
    record["d"] = bytes(data)
    write_records(path, records)
    return path


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_a_tampered_file_gives_the_audits_fault_and_nothing_else(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tampered(game, tmp_path)
    replay = load_replay(path, path.parent)
    assert replay.fault is not None and replay.frames == []
    assert main(["replay", str(path)]) == 1  # no app: the runner below is never reached
    err = capsys.readouterr().err
    assert main(["audit", str(path)]) == 1
    audit_out = capsys.readouterr().out
    said = f"{replay.fault.verdict}: {replay.fault}"  # the audit's own words, in both
    assert said in err and said in audit_out


def test_a_tampered_file_opens_no_app(tmp_path: Path) -> None:
    from fairdeal.ui.commands import replay as command

    path = tampered("larry", tmp_path)
    opened: list[object] = []
    args = command_args(path)
    assert command.run(args, runner=opened.append) == 1
    assert opened == []


def command_args(path: Path, plain: bool = False):  # type: ignore[no-untyped-def]
    import argparse

    return argparse.Namespace(transcript=path, data_dir=None, plain=plain)


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_plain_tells_the_story_with_the_games_narrators(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = owner_copy(game, tmp_path)
    assert main(["replay", "--plain", str(path)]) == 0
    out = capsys.readouterr().out
    replay = load_replay(path, path.parent)
    assert out.count("-- REPLAY ✓ audited") == len(replay.frames)
    if game == "larry":
        assert "Hand 1: 7 cards each" in out and "Game over" in out
    else:
        assert "Round 1:" in out and "Game over" in out and "✓" in out
    assert out.rstrip().endswith(replay.report.result_text())


def test_a_game_that_stops_midway_replays_up_to_where_it_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat that left or crashed mid-game: its transcript verifies so far and replays so far."""
    path = owner_copy("lie", tmp_path)
    records = read_records(path)
    applied = [i for i, r in enumerate(records) if r["k"] == "applied"]
    write_records(path, records[: applied[len(applied) // 2]])
    replay = load_replay(path, path.parent)
    assert replay.fault is None and replay.report.incomplete and replay.frames
    assert not replay.frames[-1].view.state.over
    assert main(["replay", "--plain", str(path)]) == 0
    assert "verified so far: incomplete" in capsys.readouterr().out


# -- the screen ----------------------------------------------------------------------------------


def test_replay_keys_move_in_time(tmp_path: Path) -> None:
    import asyncio

    replay = load_replay(owner_copy("lie", tmp_path), tmp_path / "lie")

    async def run() -> None:
        app = ReplayApp(replay)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert replay_screen_of(pilot).session.position == 0
            await press(pilot, "right", "right")
            assert replay_screen_of(pilot).session.position == 2
            await press(pilot, "left")
            assert replay_screen_of(pilot).session.position == 1
            await press(pilot, "end")
            assert replay_screen_of(pilot).session.position == len(replay.frames) - 1
            await press(pilot, "escape", "pageup")  # the game-over view closed first
            marks = replay.marks(fine=True)
            assert replay_screen_of(pilot).session.position == marks[-1]
            await press(pilot, "home")
            assert replay_screen_of(pilot).session.position == 0
            await press(pilot, "pagedown")
            assert replay_screen_of(pilot).session.position == marks[1]

    asyncio.run(run())


def snapshot_app(game: str, tmp_path: Path) -> ReplayApp:
    return ReplayApp(load_replay(owner_copy(game, tmp_path), tmp_path / game))


def replay_after(snap_compare, game: str, tmp_path: Path, *keys: str) -> bool:  # type: ignore[no-untyped-def]
    """The snapshot of `game`'s replay after these keys."""

    async def at(pilot: Pilot[None]) -> None:
        await press(pilot, *keys)

    return snap_compare(snapshot_app(game, tmp_path), terminal_size=SIZE, run_before=at)


def test_larry_replay_at_the_deal(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert replay_after(snap_compare, "larry", tmp_path, "right", "right")


def test_larry_replay_mid_hand(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert replay_after(snap_compare, "larry", tmp_path, *(["right"] * 20))


def test_larry_replay_at_the_end(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # the end; the scores view closed
    assert replay_after(snap_compare, "larry", tmp_path, "end", "escape")


def test_lie_replay_in_phase_1(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert replay_after(snap_compare, "lie", tmp_path, *(["right"] * 8))


def test_lie_replay_at_a_trick(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert replay_after(snap_compare, "lie", tmp_path, "pagedown", "pagedown", "pagedown")


def test_lie_replay_at_the_end(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert replay_after(snap_compare, "lie", tmp_path, "end")


# -- the lobby's past tables ---------------------------------------------------------------------


def data_with_past_tables(tmp_path: Path) -> Path:
    """A data directory holding a finished Larry table (older) and a Lie table left (newer)."""
    import os

    data = tmp_path / "data"
    tables = data / "tables"
    tables.mkdir(parents=True)
    larry = tables / "aa.transcript"
    lie = tables / "bb.transcript"
    shutil.copy(REPLAYS / "larry" / "table.transcript", larry)
    shutil.copy(REPLAYS / "lie" / "table.transcript", lie)
    (tables / "aa.transcript.done").touch()
    (tables / "bb.transcript.left").touch()
    shutil.copy(REPLAYS / "lie" / "table.transcript", tables / "cc.transcript")  # unfinished
    os.utime(larry, (1_000_000, 1_000_000))
    os.utime(lie, (2_000_000, 2_000_000))
    return data


def test_past_tables_are_the_finished_and_left_ones_newest_first(tmp_path: Path) -> None:
    from fairdeal.ui.screens.past_tables import past_tables

    found = past_tables(data_with_past_tables(tmp_path))
    assert [(p.path.name, p.how, p.game) for p in found] == [
        ("bb.transcript", "left", "The Lie"),
        ("aa.transcript", "finished", "Larry"),
    ]


def test_r_in_the_lobby_lists_them_and_enter_replays_one(tmp_path: Path) -> None:
    import asyncio

    from fairdeal.p2p.table.tools.session import NetworkSettings, use_settings
    from fairdeal.ui.app import FairdealApp
    from fairdeal.ui.player import Player
    from fairdeal.ui.screens.past_tables import PastTablesScreen

    data = data_with_past_tables(tmp_path)
    previous = use_settings(NetworkSettings(data_dir=data))

    async def run() -> None:
        app = FairdealApp(Player("Tess", "ab12-cd34", "ab12cd34"), finder=None)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, PastTablesScreen)
            await pilot.press("down", "enter")  # the older one: the finished Larry table
            await settle(pilot)
            screen = replay_screen_of(pilot)
            assert isinstance(screen, LarryReplayScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert not any(isinstance(s, LarryReplayScreen) for s in app.screen_stack)

    try:
        asyncio.run(run())
    finally:
        use_settings(previous)


def test_a_past_table_that_does_not_verify_shows_the_fault_only(tmp_path: Path) -> None:
    import asyncio

    from textual.app import App
    from textual.widgets import Static

    from fairdeal.ui.screens.past_tables import PastTablesScreen

    data = data_with_past_tables(tmp_path)
    path = tampered("larry", tmp_path)
    import os

    shutil.copy(path, data / "tables" / "aa.transcript")
    os.utime(data / "tables" / "aa.transcript", (1_000_000, 1_000_000))  # still the older one

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(PastTablesScreen(data))

    async def run() -> None:
        app = Host()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("down", "enter")
            await pilot.pause()
            assert isinstance(app.screen, PastTablesScreen)
            hint = str(app.screen.query_one("#past-hint", Static).render())
            assert hint.startswith("✗ DOES NOT VERIFY: the record")  # altered after signing

    asyncio.run(run())


def shown(screen: LarryReplayScreen | LieReplayScreen) -> dict[str, object]:
    """What the screen shows, widget by widget: every panel's text and the log's rows."""
    panels = {
        f"{type(widget).__name__}#{widget.id}": static_text(widget, width=100)
        for widget in screen.query(Static)
        if widget.display
    }
    return {**panels, "log": screen.query_one(GameLog).rows()}


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_a_step_back_shows_on_the_same_screen_what_a_new_screen_there_shows(
    game: str, tmp_path: Path
) -> None:
    import asyncio

    replay = load_replay(owner_copy(game, tmp_path), tmp_path / game)
    # a step with no view of its own (a doubt's, the scores) open over the screen
    here = next(
        k for k in range(len(replay.frames) // 2, len(replay.frames)) if not opens_a_view(replay, k)
    )

    async def run() -> tuple[dict[str, object], dict[str, object]]:
        app = ReplayApp(replay)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = replay_screen_of(pilot)
            screen.go_to(here + 1)
            await settle(pilot)
            if pilot.app.screen is not screen:  # a view of that step, closed by hand
                await press(pilot, "escape")
            await press(pilot, "left")
            assert replay_screen_of(pilot) is screen  # the same screen, started again
            assert screen.session.position == here
            stepped_back = shown(screen)
        fresh_app = ReplayApp(replay)
        async with fresh_app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            fresh_app.switch_screen(replay_screen(replay, here))
            await settle(pilot)
            await pilot.pause()
            fresh = shown(replay_screen_of(pilot))
        return stepped_back, fresh

    stepped_back, fresh = asyncio.run(run())
    assert stepped_back["log"] and len(stepped_back) > 4  # panels and a log to compare
    assert stepped_back == fresh


def opens_a_view(replay, position: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the step's own events open a view (a doubt's cards, the scores, a fault)."""
    names = {type(event).__name__ for event in replay.frames[position].events}
    return bool(names & {"DoubtVerification", "FaultDetected", "TableEnded"}) or any(
        type(e).__name__ in {"HandScored", "GameOver", "RoundEnded"}
        for event in replay.frames[position].events
        for e in getattr(event, "events", ())
    )


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_a_step_back_from_a_step_with_a_view_closes_the_view(game: str, tmp_path: Path) -> None:
    import asyncio

    replay = load_replay(owner_copy(game, tmp_path), tmp_path / game)

    async def run() -> None:
        app = ReplayApp(replay)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = replay_screen_of(pilot)
            while pilot.app.screen is screen:  # on to the first step that opens a view
                assert screen.session.position < len(replay.frames) - 1, "no view opens"
                screen.go_to(screen.session.position + 1)
                await settle(pilot)
            with_view = screen.session.position
            screen.go_to(with_view - 1)  # as ← on the replay would
            await settle(pilot)
            assert pilot.app.screen is screen and screen.session.position == with_view - 1
            assert replay_screen_of(pilot) is screen

    asyncio.run(run())
