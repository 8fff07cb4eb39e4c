"""The seat list shows what lies in front of each seat (L20)."""

from __future__ import annotations

from dataclasses import replace

from fairdeal.engine.larry import LarryView
from fairdeal.engine.oracle import OracleDriver
from fairdeal.p2p.table.core.api import SeatInfo
from fairdeal.ui.games.larry.widgets.seat_list import SeatList

from .support import static_text

SEATS = [SeatInfo(name, "", is_bot=True, is_me=False) for name in ("Ann", "Bo", "Cy")]


def seat_rows(in_front: tuple[tuple[int, ...], ...]) -> list[str]:
    state = OracleDriver(3, seed=1, game="larry").state
    state = replace(state, in_front=in_front)
    seat_list = SeatList()
    seat_list.seats = tuple(SEATS)
    seat_list.view = LarryView(0, state, {})
    return static_text(seat_list, width=40).splitlines()


def test_play_face_up_cards_in_front_of_their_target_are_shown_l20() -> None:
    rows = seat_rows(((), (90,), (91, 92)))
    assert "UP!" not in rows[0]
    assert "UP!" in rows[1] and "×" not in rows[1]
    assert "UP!×2" in rows[2]  # two 'play face-up' cards lie in front of Cy (L20)


PEERS = [SeatInfo(name, "", is_bot=False, is_me=False) for name in ("Alexandra", "Bo", "Cy")]


def peer_rows(seat_list: SeatList, offline: frozenset[int] = frozenset()) -> list[str]:
    state = replace(OracleDriver(3, seed=1, game="larry").state, in_front=((90,), (), ()))
    seat_list.seats, seat_list.offline = tuple(PEERS), offline
    seat_list.view = LarryView(1, state, {})
    return static_text(seat_list, width=38).splitlines()


def test_up_does_not_hide_the_connection_nor_a_wait_timer_the_name() -> None:
    seat_list = SeatList()
    rows = peer_rows(seat_list)
    assert "UP! on" in rows[0]  # the card in front of Alexandra, and she is connected
    rows = peer_rows(seat_list, offline=frozenset({0}))
    assert "UP! OFFLINE" in rows[0]
    seat_list.set_waiting(0, 32.0)
    rows = peer_rows(seat_list)
    assert "Alexandra" in rows[0] and "WAIT" in rows[0], rows  # the name is not cut to "Ale…"
