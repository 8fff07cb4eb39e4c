"""A scripted TableSession: emits the events a test gives it, to show faults and waiting seats."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fairdeal.engine.games import AnyGame, get_game
from fairdeal.engine.larry import Action, IllegalAction, LarryView, view_for
from fairdeal.engine.oracle import OracleDriver
from fairdeal.p2p.table.core.api import SeatInfo, StateChanged, TableEvent
from fairdeal.p2p.table.core.presenter import result_so_far


class ScriptedSession:
    """A 3-seat table frozen at the start of hand 1; `push` adds events for the UI to show."""

    def __init__(self, *, ready: bool = True) -> None:
        self.ready = ready  # False: like a networked table before keys and deal, no view yet
        self._driver = OracleDriver(3, seed=0)
        self._queue: asyncio.Queue[TableEvent | None] = asyncio.Queue()
        self.seats_info = (
            SeatInfo("Tess", "11111 22222 33333 44444 55555", False, True),
            SeatInfo("Mallory", "66666 77777 88888 99999 00000", False, False),
            SeatInfo("Sam", "12121 34343 56565 78787 90909", False, False),
        )
        self.pushed = 0
        self.game: AnyGame | None = get_game("larry")
        self.transcript_path = None  # a scripted table keeps none

    def round_seen(self, round_no: int) -> None:
        """Nothing here waits for the player."""

    @property
    def seat(self) -> int:
        return 0

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return self.seats_info

    def view(self) -> LarryView:
        assert self.ready, "the game has not begun"
        return view_for(self._driver.state, self._driver.knowledge[0], 0)

    async def act(self, action: Action) -> None:
        raise IllegalAction(0, "this scripted table takes no actions")

    def push(self, event: TableEvent) -> None:
        self.pushed += 1
        self._queue.put_nowait(event)

    def play_for_us(self) -> None:
        """Our seat makes its first legal move, so that another seat is to act."""
        from fairdeal.engine.larry.legal import legal_actions

        before = len(self._driver.events)
        self._driver.act(0, legal_actions(self.view())[0])
        self.push(StateChanged(self._driver.state, tuple(self._driver.events[before:])))

    def others_play(self) -> None:
        """The other seats move (their first legal move) until it is our turn again."""
        from fairdeal.engine.larry.legal import legal_actions

        before = len(self._driver.events)
        while (seat := self._driver.state.to_act()) not in (0, None):
            view = view_for(self._driver.state, self._driver.knowledge[seat], seat)
            self._driver.act(seat, legal_actions(view)[0])
        self.push(StateChanged(self._driver.state, tuple(self._driver.events[before:])))

    def begin(self) -> None:
        """The setup is over: the table has a state from now on."""
        self.ready = True
        self.push(StateChanged(self._driver.state, ()))

    async def events(self) -> AsyncIterator[TableEvent]:
        if self.ready:
            yield StateChanged(self._driver.state, ())
        while (event := await self._queue.get()) is not None:
            yield event

    async def start(self) -> None:
        return None

    async def end_table(self, reason: str) -> None:
        self.push(result_so_far(self._driver.state, 3, reason))
        await self.close()

    async def close(self) -> None:
        self._queue.put_nowait(None)
