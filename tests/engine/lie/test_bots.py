"""The Lie's bots: legal on their view only, a pace for Phase 1, a heuristic that wins, and sides
chosen after the front is seen (T3)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from fairdeal.engine import OracleDriver
from fairdeal.engine.bots import Bot
from fairdeal.engine.lie import Claim, LieOptions, Pass, Phase, Place, Play, Side, view_for
from fairdeal.engine.lie.bots import make_bot
from fairdeal.engine.lie.bots.random_bot import _choice
from fairdeal.engine.lie.cards import COLOUR_OF
from fairdeal.engine.lie.events import HandComplete
from fairdeal.engine.lie.legal import play_actions, play_slots
from fairdeal.engine.selfplay import make_bots, play_game


def test_pace_orders_simultaneous_claims_in_selfplay() -> None:
    firsts = []
    for seed in range(10):
        bots = [make_bot("random", random.Random(seed), pace=0.1)]
        bots += [make_bot("random", random.Random(seed + s), pace=1.0) for s in (1, 2)]
        driver = OracleDriver(3, LieOptions(rounds=1), seed=seed)
        play_game(bots, driver=driver, seed=seed)
        first = next(e for e in driver.events if isinstance(e, HandComplete) and e.first)
        firsts.append(first.seat)
    assert firsts == [0] * 10  # ten times faster: always the first to a full hand (T3)


def test_a_bot_needs_a_positive_pace() -> None:
    with pytest.raises(ValueError, match="pace must be positive"):
        make_bot("heuristic", random.Random(0), pace=0)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", random.Random(0))


def test_the_heuristic_bot_wins_well_above_its_share() -> None:
    rng = random.Random(7)
    games, wins = 40, 0.0
    for _ in range(games):
        bots = make_bots("heuristic,random", 4, rng, "lie")
        result = play_game(bots, LieOptions(), seed=rng.randrange(1 << 32))
        if 0 in result.winners:
            wins += 1 / len(result.winners)
    assert wins / games > 0.5  # an equal share would be 0.25


# -- T3: sides after fronts --------------------------------------------------------------------
def _take(driver: OracleDriver, seat: int, colour: int) -> int:
    """`seat` claims the first table card of front colour `colour` (the oracle deals it at once)."""
    slot = next(s for s in driver.state.table if COLOUR_OF[driver.faces[s]] == colour)
    driver.act(seat, Claim(slot))
    return slot


def test_the_heuristic_places_after_seeing_the_front_to_extend_a_run() -> None:
    driver = OracleDriver(2, LieOptions(hand_size=6, rounds=1), seed=3, game="lie")
    bot = make_bot("heuristic", random.Random(0))
    red, yellow, green = 0, 1, 2

    def placed(colour: int) -> Side:
        _take(driver, 0, colour)
        view = view_for(driver.state, driver.knowledge[0], 0)
        assert view.can_place and not view.can_claim
        action = bot.choose(view)
        assert isinstance(action, Place)
        driver.act(0, action)
        return action.side

    _take(driver, 0, red)  # the first card starts the hand by itself
    assert placed(green) in (Side.LEFT, Side.RIGHT)  # hand: r g or g r
    hand_colours = [COLOUR_OF[driver.faces[s]] for s in driver.state.hands[0]]
    for colour in (red, green):  # each goes next to its own colour
        side = placed(colour)
        assert side is (Side.LEFT if hand_colours[0] == colour else Side.RIGHT)
        hand_colours = [COLOUR_OF[driver.faces[s]] for s in driver.state.hands[0]]
    assert hand_colours in ([red, red, green, green], [green, green, red, red])
    _take(driver, 0, green)
    view = view_for(driver.state, driver.knowledge[0], 0)
    action = bot.choose(view)
    assert isinstance(action, Place)
    driver.act(0, action)
    hand_colours = [COLOUR_OF[driver.faces[s]] for s in driver.state.hands[0]]
    assert hand_colours.count(green) == 3 and _longest_run(hand_colours) == 3
    side = placed(yellow)  # no end matches: by the longer run (green), red may still grow
    assert hand_colours[0 if side is Side.LEFT else -1] == green


def _longest_run(colours: list[int]) -> int:
    best = run = 0
    for i, colour in enumerate(colours):
        run = run + 1 if i and colours[i - 1] == colour else 1
        best = max(best, run)
    return best


def _phase_one_hands(bots: list[Bot], seed: int) -> list[list[int]]:
    """Play Phase 1 only; each seat's hand colours, left to right."""
    driver = OracleDriver(len(bots), LieOptions(rounds=1), seed=seed, game="lie")
    while driver.state.phase is Phase.BUILD:
        for seat in driver.state.actors():
            view = view_for(driver.state, driver.knowledge[seat], seat)
            driver.act(seat, bots[seat].choose(view))
            if driver.state.phase is not Phase.BUILD:
                break
    return [[COLOUR_OF[driver.faces[s]] for s in hand] for hand in driver.state.hands]


def _neighbours_of_one_colour(colours: list[int]) -> int:
    """How many adjacent pairs in a hand share a colour (the stuff of combinations, T5)."""
    return sum(a == b for a, b in pairwise(colours))


def test_seeing_the_front_first_lets_the_heuristic_build_runs_of_one_colour() -> None:
    """Sides chosen after fronts (T3) are a skill: of a 12-card hand's 11 neighbour pairs the
    heuristic makes far more of one colour than a random placer does."""
    heuristic, chance = [], []
    for seed in range(12):
        rng = random.Random(seed)
        bots = make_bots("heuristic,random", 2, rng, "lie")
        hands = _phase_one_hands(bots, seed)
        heuristic.append(_neighbours_of_one_colour(hands[0]))
        chance.append(_neighbours_of_one_colour(hands[1]))
    mean_heuristic, mean_chance = sum(heuristic) / 12, sum(chance) / 12  # measured: 6.5, 2.3
    assert mean_heuristic >= 5 and mean_chance <= 3.5


def test_the_random_bot_places_at_either_end_and_claims_only_with_nothing_to_place() -> None:
    sides = set()
    for seed in range(8):
        driver = OracleDriver(2, LieOptions(hand_size=4, rounds=1), seed=seed, game="lie")
        bot = make_bot("random", random.Random(seed))
        while driver.state.phase is Phase.BUILD:
            for seat in driver.state.actors():
                view = view_for(driver.state, driver.knowledge[seat], seat)
                action = bot.choose(view)
                assert isinstance(action, Place if view.can_place else Claim)
                if isinstance(action, Place):
                    sides.add(action.side)
                driver.act(seat, action)
                if driver.state.phase is not Phase.BUILD:
                    break
    assert sides == {Side.LEFT, Side.RIGHT}


def test_the_random_bot_draws_its_play_from_the_legal_plays_without_listing_them() -> None:
    """play_slots lists the slots of exactly the plays play_actions lists, in the same order, and
    the random bot's play is one of them (or a Pass where one is legal)."""
    checked = 0
    for seed in range(6):
        driver = OracleDriver(4, LieOptions(rounds=1), seed=seed)
        bots = [make_bot("random", random.Random(seed * 10 + seat)) for seat in range(4)]
        state = driver.state
        while not state.over:
            seat = state.to_act()
            if seat is None:
                seat = state.actors()[0]
            view = view_for(state, driver.knowledge[seat], seat)
            action = bots[seat].choose(view)
            if state.phase is Phase.PLAY:
                actions = play_actions(view)
                plays = [a for a in actions if type(a) is Play]
                assert plays == [Play(slots) for slots in play_slots(view)]
                assert (Pass() in actions) == (state.position > 0)
                assert action in actions
                checked += 1
            driver.act(seat, action)
            state = driver.state
    assert checked > 100


def test_the_random_bots_draw_is_the_librarys() -> None:
    for seed in range(100):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (1, 2, 3, 5, 17, 96):
            items = list(range(size))
            assert _choice(ours, items) == theirs.choice(items)
        assert ours.getstate() == theirs.getstate()


# -- racing at a difficulty: bots that do not all reach for the same card --------------------
def _first_claims(difficulty: str | None, bots: int = 200) -> list[int]:
    """The back each of `bots` heuristic bots (seeded one by one) claims first on one table."""
    from fairdeal.engine.bots import make_bot as make_any_bot

    driver = OracleDriver(4, LieOptions(rounds=1), seed=11)
    assert driver.state.claims_open()  # the driver served the layout: Phase 1 is on
    view = view_for(driver.state, driver.knowledge[0], 0)
    backs = []
    for seed in range(bots):
        bot = make_any_bot("heuristic", random.Random(seed), "lie", difficulty)
        action = bot.choose(view)
        assert isinstance(action, Claim) and action.slot in view.table
        backs.append(view.backs[action.slot])
    return backs


def test_without_a_difficulty_every_heuristic_bot_takes_the_same_best_back() -> None:
    assert len(set(_first_claims(None))) == 1  # self-play's bot: deterministic, as recorded


def test_at_a_difficulty_bots_spread_over_the_good_backs_the_best_likeliest() -> None:
    """An empty hand rates a back by the mean number it hides: a 4-back (mean 3) best, a
    1-back (mean 2) worst. At a difficulty the 4-backs are the likeliest, spread over their four
    colours; the easier, the more often a lesser back."""
    number = [back % 4 + 1 for back in range(16)]
    assert len(set(_first_claims(None))) == 1
    fours = {}
    for difficulty in ("hard", "normal", "easy"):
        backs = _first_claims(difficulty)
        numbers = [number[b] for b in backs]
        assert len({b for b in backs if number[b] == 4}) == 4, difficulty  # every colour
        assert max(set(numbers), key=numbers.count) == 4, difficulty
        fours[difficulty] = numbers.count(4) / len(numbers)
        assert difficulty == "hard" or len(set(numbers)) >= 2, difficulty
    assert fours["hard"] >= fours["normal"] > fours["easy"] > 0.25  # 0.25: no preference
    with pytest.raises(ValueError, match="unknown difficulty"):
        _first_claims("impossible", bots=1)
