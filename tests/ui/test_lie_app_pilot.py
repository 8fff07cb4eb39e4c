"""The Lie through the app, keyboard and mouse, against local bots.

Bots claim and play with no delay, so every wait is on the table being idle (no bot has anything
to do) and the screen having handled every event: no sleeps.
"""

from __future__ import annotations

from textual.pilot import Pilot

from fairdeal.engine.lie import DECK, Claim, LieOptions, Phase, Place, Side
from fairdeal.engine.lie.cards import COLOUR_OF
from fairdeal.engine.lie.events import Played, RoundEnded
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.lie.choosing import legal_plays
from fairdeal.ui.games.lie.scores import LieScoresScreen
from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.games.lie.widgets.hand import LieHandView
from fairdeal.ui.games.lie.widgets.table_grid import COLUMNS, LieTableGrid

from .support import PLAYER, engine_events, make_app, screen_of, static_text
from .support import settle as table_settled

SIZE = (80, 24)


def lie_table(seed: int = 1, players: int = 4, **options: object) -> LocalTable:
    return LocalTable(
        players,
        game="lie",
        seed=seed,
        human_name=PLAYER.name,
        hold_rounds=True,
        options=LieOptions(**options),  # type: ignore[arg-type]
    )


def lie_screen(app: FairdealApp) -> LieTableScreen:
    return screen_of(app, LieTableScreen)


async def settle(pilot: Pilot[None], table: LocalTable) -> None:
    await table_settled(pilot, table, LieTableScreen)


def hint(app: FairdealApp) -> str:
    """The hint line's words, its wrapping undone."""
    return " ".join(static_text(lie_screen(app).query_one("#lie-hint")).split())  # type: ignore[arg-type]


async def grab_a_hand(pilot: Pilot[None], table: LocalTable) -> None:
    """Phase 1 by keyboard (T3): take the card at the cursor with Enter, then, its front seen,
    place it with → a ← d by turns; move the cursor every other card."""
    places = ["right", "a", "left", "d"]
    moves = ["right", "down", "left"]
    index = 0
    while True:
        view = table.view()
        if view.can_place:
            await pilot.press(places[index % len(places)])
        elif view.can_claim:
            if index % 2:
                await pilot.press(moves[index % len(moves)])
            await pilot.press("enter")
        else:
            return
        index += 1
        await settle(pilot, table)


async def click_a_table_card(pilot: Pilot[None], table: LocalTable) -> int:
    """Click the first card still on the table; return its slot."""
    state = table.state
    position = next(p for p, slot in enumerate(state.layout) if slot in state.table)
    row, column = divmod(position, COLUMNS)
    await pilot.click(LieTableGrid, offset=(2 + column * 4 + 1, 1 + row))
    await settle(pilot, table)
    return state.layout[position]


async def play_my_goes(pilot: Pilot[None], table: LocalTable, until: type) -> None:
    """Phase 2 by keyboard: the first legal play (Tab cycles; the screen preselects one), else
    pass; until an event of type `until` has happened."""
    seen = len(engine_events(table, object))
    while True:
        await settle(pilot, table)
        changes = engine_events(table, object)
        if any(isinstance(e, until) for e in changes[seen:]) or table.state.over:
            return
        if isinstance(pilot.app.screen, LieScoresScreen):
            return
        view = table.view()
        if view.phase is Phase.PLAY and view.my_turn:
            before = table.event_count
            await pilot.press("enter")
            if table.event_count == before:  # no legal play selected: pass instead
                await pilot.press("p")
            await settle(pilot, table)


async def test_a_whole_round_through_the_ui_phase_1_included() -> None:
    table = lie_table(seed=3)
    app = make_app(table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        assert isinstance(app.screen, LieTableScreen)
        assert "Phase 1" in static_text(app.screen.query_one("#lie-status"))  # type: ignore[arg-type]
        await grab_a_hand(pilot, table)
        hand = table.state.hands[0]
        assert len(hand) == 12
        mine = [a for s, a in table._driver.log if s == 0]
        assert [type(a) for a in mine] == [Claim] + [Claim, Place] * 11  # T3: take, then place
        assert {a.side for a in mine if isinstance(a, Place)} == {Side.LEFT, Side.RIGHT}
        await settle(pilot, table)
        assert table.state.phase is Phase.PLAY
        await play_my_goes(pilot, table, RoundEnded)
        await settle(pilot, table)
        assert isinstance(app.screen, LieScoresScreen)  # the round's score table
        text = static_text(app.screen.query_one(".title"))  # type: ignore[arg-type]
        assert "Round 1 of 3 is over" in text
        # The next round waits behind the score table: no bot grabs while we read it.
        assert table.state.round_no == 2 and table.state.hand_sizes() == (0, 0, 0, 0)
        await pilot.press("enter")
        await settle(pilot, table)
        assert isinstance(app.screen, LieTableScreen)
        assert table.state.hand_sizes()[1:] == (12, 12, 12)  # ready: the bots grabbed
        plays = [e for ev in table.history if isinstance(ev, StateChanged) for e in ev.events]
        assert any(isinstance(e, Played) and e.seat == 0 for e in plays)  # we played cards


async def test_a_three_round_game_with_the_keyboard_alone() -> None:
    # hands of 4, not 12: three rounds to the end are the point, and each card costs a render
    table = lie_table(seed=8, players=3, hand_size=4)
    app = make_app(table)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await settle(pilot, table)
            await grab_a_hand(pilot, table)
            await play_my_goes(pilot, table, RoundEnded)
            await settle(pilot, table)
            assert isinstance(app.screen, LieScoresScreen)
            if not table.state.over:
                await pilot.press("enter")
        assert table.state.phase is Phase.GAME_OVER
        assert "Game over" in static_text(app.screen.query_one(".title"))  # type: ignore[arg-type]


async def test_a_lost_race_says_who_got_the_card_and_changes_nothing() -> None:
    table = lie_table(seed=2)
    app = make_app(table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        screen = lie_screen(app)
        state = table.state
        taken = next(p for p, slot in enumerate(state.layout) if slot in state.hands[2])
        screen.cursor = taken  # we were aiming at a card Ben has just taken
        before = table.state
        await pilot.press("enter")
        await settle(pilot, table)
        assert table.state is before
        assert "Ben (bot) got that" in hint(app) and "first" in hint(app)


async def test_the_mouse_claims_a_table_card_and_chooses_a_combination() -> None:
    table = lie_table(seed=4, players=2)
    app = make_app(table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        state = table.state
        position = next(p for p, slot in enumerate(state.layout) if slot in state.table)
        row, column = divmod(position, COLUMNS)
        await pilot.click(LieTableGrid, offset=(2 + column * 4 + 1, 1 + row))
        await settle(pilot, table)
        assert table.state.hands[0] == (state.layout[position],)
        # T3: another card, then a click on the hand's right half places it at the right end.
        taken = await click_a_table_card(pilot, table)
        assert table.state.unplaced[0] == taken
        await pilot.click("#lie-hand", offset=(2 + 3, 1))  # the right half of the one card
        await settle(pilot, table)
        assert table.state.unplaced[0] is None
        assert table.state.hands[0] == (state.layout[position], taken)
        third = await click_a_table_card(pilot, table)
        await pilot.click("#lie-hand", offset=(2 + 1, 1))  # the left half of the hand
        await settle(pilot, table)
        assert table.state.hands[0] == (third, state.layout[position], taken)
        await grab_a_hand(pilot, table)
        await settle(pilot, table)
        screen = lie_screen(app)
        view = table.view()
        assert view.phase is Phase.PLAY
        await pilot.click("#lie-hand", offset=(2 + 5 * 4 + 1, 1))
        await pilot.pause()
        assert (screen.sel_start, screen.sel_len) == (5, 1)
        colours = [DECK[face].colour for face in table.view().hand_faces]
        await pilot.click("#lie-hand", offset=(2 + 6 * 4 + 1, 1))  # the right-hand neighbour
        await pilot.pause()
        same = colours[5] == colours[6]
        assert (screen.sel_start, screen.sel_len) == ((5, 2) if same else (6, 1))


async def test_tab_walks_the_legal_plays_and_up_never_mixes_colours() -> None:
    # hands of 6, not 12: enough for a go with a choice of plays, and half the cards to take
    table = lie_table(seed=5, players=3, hand_size=6)
    app = make_app(table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        screen = lie_screen(app)
        for _ in range(40):  # goes until one of ours offers a choice of plays
            await settle(pilot, table)
            view = table.view()
            plays = legal_plays(view) if view.my_turn else []
            if len(plays) >= 2:
                break
            if view.my_turn:
                await pilot.press("enter" if plays else "p")
        else:
            raise AssertionError("no go with two legal plays")
        chosen = []
        for _ in range(len(plays)):
            await pilot.press("tab")
            await pilot.pause()
            chosen.append((screen.sel_start, screen.sel_len))
            assert "✓ Enter plays it" in hint(app)
        assert sorted(chosen) == plays  # Tab visits every legal play once
        colours = [DECK[face].colour for face in view.hand_faces]
        for _ in range(3):
            await pilot.press("up")
            await pilot.pause()
            picked = colours[screen.sel_start : screen.sel_start + screen.sel_len]
            assert len(set(picked)) == 1 and 1 <= len(picked) <= 3  # T5: one colour, 1-3


async def test_a_taken_card_shows_its_front_beside_the_hand_until_an_arrow_places_it() -> None:
    """T3 at the app: Enter takes the card at the cursor; its front stands beside the hand and
    the status line asks where to put it; → and ← place it; nothing else is taken meanwhile."""
    table = lie_table(seed=6, players=2)
    app = make_app(table)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        screen = lie_screen(app)
        status = screen.query_one("#lie-status")
        hand_view = screen.query_one(LieHandView)
        await pilot.press("enter")  # the first card starts the hand by itself
        await settle(pilot, table)
        first = table.state.hands[0]
        assert len(first) == 1 and table.state.unplaced[0] is None
        for key, side in (("right", Side.RIGHT), ("a", Side.LEFT)):
            slot = table.state.layout[screen.cursor]
            await pilot.press("enter")
            await settle(pilot, table)
            view = table.view()
            assert view.unplaced == slot and view.can_place
            face = view.unplaced_face
            assert face is not None
            name = f"{'rygb'[COLOUR_OF[face]]}{DECK[face].number}"
            assert f"place the {name}: ← left or → right" in static_text(status)  # type: ignore[arg-type]
            assert hand_view.new_card == (face, table.state.backs[slot])
            assert name in hint(app) and "left end" in hint(app)
            before = table.state.hands[0]
            cursor = screen.cursor
            await pilot.press("enter")  # taking another is refused until this one is placed
            await settle(pilot, table)
            assert table.view().unplaced == slot and "Place your new card first" in hint(app)
            await pilot.press(key)  # the arrow places; it does not move the cursor
            await settle(pilot, table)
            hand = table.state.hands[0]
            assert hand == ((*before, slot) if side is Side.RIGHT else (slot, *before))
            assert table.view().unplaced is None and hand_view.new_card is None
            assert screen.cursor == cursor
            assert "Phase 1" in static_text(status)  # type: ignore[arg-type]
        await pilot.press("right")  # nothing to place: the arrows move the cursor again
        await pilot.pause()
        assert screen.cursor != cursor
