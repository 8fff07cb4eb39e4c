"""The local table plays The Lie too: Phase 1 in real time (T3), tricks, prizes, three rounds."""

from __future__ import annotations

import random

import pytest

from fairdeal.engine.lie import Claim, IllegalAction, LieOptions, Phase, Place, Side, SlotTaken
from fairdeal.engine.lie.bots.heuristic import HeuristicBot
from fairdeal.engine.lie.events import Claimed, GameOver, Placed, RoundEnded
from fairdeal.p2p.table.core.api import SetupProgress, StateChanged
from fairdeal.p2p.table.runtime.local import LocalTable

from .support import engine_events, play_out


async def test_a_whole_game_of_the_lie_against_bots() -> None:
    table = LocalTable(4, game="lie", seed=5)
    await table.start()
    await play_out(table, HeuristicBot(random.Random(3)))
    events = engine_events(table, object)
    assert sum(isinstance(e, RoundEnded) for e in events) == 3  # T9: three rounds
    assert isinstance(events[-1], GameOver)
    assert table.state.phase is Phase.GAME_OVER
    shuffles = [e for e in table.history if isinstance(e, SetupProgress)]
    assert shuffles and shuffles[0].phase == "shuffle"
    await table.close()


async def test_in_phase_1_the_bots_wait_for_nobody_and_idle_means_they_are_done() -> None:
    """With no pace the bots fill their hands at once; the human then claims alone (T3)."""
    table = LocalTable(3, game="lie", seed=2, claim_pace=0)
    await table.start()
    await table.wait_idle()
    sizes = table.state.hand_sizes()
    assert sizes[1:] == (12, 12) and sizes[0] == 0
    assert table.state.first_done in (1, 2)  # a bot called "Done!" first and leads trick 1
    await table.close()


async def test_the_human_and_the_bots_claim_at_the_same_time() -> None:
    """The human claims whenever a bot's claim arrives: the claims interleave (T3)."""
    table = LocalTable(3, game="lie", seed=4, claim_pace=0.001)
    await table.start()
    async for event in table.events():
        if not isinstance(event, StateChanged):
            continue
        view = table.view()
        if view.phase is not Phase.BUILD:
            break
        bot_claimed = any(isinstance(e, Claimed) and e.seat != 0 for e in event.events)
        if view.can_place:
            await table.act(Place(Side.LEFT))
        elif bot_claimed and view.can_claim:
            await table.act(Claim(view.table[0]))
    claimers = [seat for seat, action in table._driver.log if isinstance(action, Claim)]
    first_human = claimers.index(0)
    assert any(seat != 0 for seat in claimers[first_human:])  # bots went on after the human
    assert table.state.hand_sizes() == (12, 12, 12)
    await table.close()


async def test_a_claim_of_a_taken_card_is_refused_and_changes_nothing() -> None:
    table = LocalTable(2, game="lie", seed=1, claim_pace=0)
    await table.start()
    await table.wait_idle()
    taken = table.state.hands[1][0]
    before = table.state
    with pytest.raises(SlotTaken):
        await table.act(Claim(taken))
    assert table.state is before
    await table.close()


def test_lie_options_are_checked_for_the_game() -> None:
    with pytest.raises(ValueError, match="players"):
        LocalTable(7, game="lie")  # T2: 2-6
    with pytest.raises(ValueError, match="not options of The Lie"):
        from fairdeal.engine.larry import LarryOptions

        LocalTable(4, game="lie", options=LarryOptions())
    assert LocalTable(2, options=LieOptions(rounds=1)).game.name == "lie"
    assert issubclass(SlotTaken, IllegalAction)


async def test_held_bots_start_a_round_only_once_the_player_is_ready() -> None:
    table = LocalTable(3, game="lie", seed=6, hold_rounds=True)
    await table.start()
    await table.wait_idle()
    assert table.state.hand_sizes() == (0, 0, 0)  # nobody grabs before the player sees the table
    table.round_seen(1)
    await table.wait_idle()
    assert table.state.hand_sizes() == (0, 12, 12)
    await table.close()


async def test_a_play_our_own_fronts_contradict_is_refused_before_it_is_sent() -> None:
    """T5: a wrong-colour play is refused by the seat's own check; no Violation, no change."""
    from fairdeal.engine.lie import Play, WrongColour

    for seed in range(30):
        table = LocalTable(2, game="lie", seed=seed, options=LieOptions(hand_size=6))
        await table.start()
        await table.wait_idle()  # the bot grabs its hand first, so it leads trick 1 (T3)
        while table.view().can_claim or table.view().can_place:
            view = table.view()
            await table.act(Place(Side.RIGHT) if view.can_place else Claim(view.table[0]))
        await table.wait_idle()
        view = table.view()
        lead = view.state.lead_colour
        from fairdeal.engine.lie.cards import DECK

        wrong = [s for s, f in view.hand if lead is not None and DECK[f].colour != lead]
        if view.my_turn and wrong:
            before = table.state
            with pytest.raises(WrongColour):
                await table.act(Play((wrong[0],)))
            assert table.state is before
            await table.close()
            return
        await table.close()
    raise AssertionError("no seed gave a go with a wrong-colour card")


async def test_bots_at_a_local_table_place_each_card_after_taking_it() -> None:
    """T3: every bot card is a Claim, then (from the second card) a Place of that very card;
    the human's unplaced card holds nobody up, and the human places it when they like."""
    table = LocalTable(3, game="lie", seed=7, claim_pace=0, options=LieOptions(hand_size=5))
    await table.start()
    await table.act(Claim(table.view().table[0]))
    await table.act(Claim(table.view().table[0]))
    await table.wait_idle()  # the bots fill their hands while ours waits to be placed
    assert table.state.hand_sizes() == (1, 5, 5) and table.state.unplaced[0] is not None
    for bot in (1, 2):
        actions = [type(a) for s, a in table._driver.log if s == bot]
        assert actions == [Claim] + [Claim, Place] * 4
    placed = engine_events(table, Placed)
    assert sum(e.seat == 1 for e in placed) == 5  # the first card too, placed by the engine
    taken = table.state.unplaced[0]
    await table.act(Place(Side.LEFT))
    assert table.state.hands[0][0] == taken
    assert table.state.unplaced[0] is None and table.view().can_claim
    await table.close()


async def test_a_bot_places_its_card_at_once_the_pace_is_between_its_cards() -> None:
    """`claim_pace` spaces a bot's cards; the placing of a card it took waits for nothing (T3)."""
    table = LocalTable(2, game="lie", seed=3, claim_pace=5.0, options=LieOptions(hand_size=3))
    table._driver.act(1, Claim(table.state.table[0]))  # its first card: placed by the engine
    assert table._delay(1) == 5.0
    table._driver.act(1, Claim(table.state.table[0]))
    assert table.state.unplaced[1] is not None and table._delay(1) == 0.0
    assert table._delay(0) == 5.0
    await table.close()


def test_the_players_panel_shows_a_card_taken_and_not_yet_placed() -> None:
    """T3: others see each hand's backs in order, and the back of a card taken, not placed."""
    from fairdeal.engine.lie import view_for
    from fairdeal.engine.lie.cards import BACK_OF
    from fairdeal.p2p.table.core.api import SeatInfo
    from fairdeal.ui.games.lie.widgets.cards import back_label, letters_for
    from fairdeal.ui.games.lie.widgets.players import LiePlayersView

    from .support import static_text

    table = LocalTable(2, game="lie", seed=3, options=LieOptions(hand_size=3))
    driver = table._driver
    driver.act(1, Claim(driver.state.table[0]))
    driver.act(1, Claim(driver.state.table[0]))
    first, taken = driver.state.hands[1][0], driver.state.unplaced[1]
    letters = letters_for(driver.options.colour_names)
    backs = [back_label(BACK_OF[driver.faces[slot]], letters) for slot in (first, taken)]
    seats = (SeatInfo("Tess", "", False, True), SeatInfo("Ben", "", True, False))
    panel = LiePlayersView()
    panel.seats = seats
    panel.view = view_for(driver.state, driver.knowledge[0], 0)
    assert f"{backs[0]} +{backs[1]}" in static_text(panel)
    driver.act(1, Place(Side.LEFT))
    panel.view = view_for(driver.state, driver.knowledge[0], 0)
    assert f"{backs[1]} {backs[0]}" in static_text(panel) and "+" not in static_text(panel)


async def test_at_a_difficulty_the_bots_react_like_people_and_choose_at_it() -> None:
    """A local table at a difficulty: each bot move waits a reaction time drawn with the
    injected generator (p2p/table/runtime/reaction.py), not the fixed claim pace; its bots choose at
    it."""
    import statistics

    from fairdeal.engine.lie.bots.paced import SPREADS
    from fairdeal.p2p.table.runtime.reaction import reactions

    table = LocalTable(
        3,
        game="lie",
        seed=2,
        claim_pace=9.0,
        difficulty="hard",
        reaction_rng=random.Random(4),
        hold_rounds=True,  # the bots wait for `ready`: nothing races meanwhile
    )
    await table.start()
    waits = [table._delay(1) for _ in range(2000)]
    assert statistics.fmean(waits) == pytest.approx(reactions("hard").choose.mean, rel=0.05)
    assert max(waits) < 9.0 and statistics.stdev(waits) > 0.05  # no fixed pace, no metronome
    assert all(getattr(bot, "spread", None) == SPREADS["hard"] for bot in table._bots.values())
    await table.close()
