"""A doubt says who played each pile card (L9): DoubtResolved.played_by, parallel to its cards,
so the tables that prove a doubt (p2p/games/larry/table.py, p2p/table/runtime/local.py) need not
keep the pile's seats themselves."""

from __future__ import annotations

import pytest

from fairdeal.engine.larry import Doubt, OracleDriver, PlayFaceDown
from fairdeal.engine.larry.codec import DecodeError, event_from_data, to_data
from fairdeal.engine.larry.events import DoubtResolved


def _doubt_after_two_plays() -> DoubtResolved:
    driver = OracleDriver(4, seed=3)
    driver.act(0, PlayFaceDown(driver.state.hands[0][0], 2))
    driver.act(1, PlayFaceDown(driver.state.hands[1][0], 4))
    driver.act(2, Doubt())
    return next(e for e in driver.events if isinstance(e, DoubtResolved))


def test_a_doubt_names_the_seat_of_every_pile_card_in_pile_order() -> None:
    resolved = _doubt_after_two_plays()
    assert resolved.played_by == (0, 1)
    assert len(resolved.played_by) == len(resolved.cards)
    assert resolved.last_player == 1


def test_played_by_survives_plain_data_and_a_tampered_seat_list_is_refused() -> None:
    resolved = _doubt_after_two_plays()
    data = to_data(resolved)
    assert data["played_by"] == [0, 1]
    assert event_from_data(data) == resolved
    with pytest.raises(DecodeError, match=r"\$\.played_by\[1\]: expected an integer"):
        event_from_data({**data, "played_by": [0, "1"]})
