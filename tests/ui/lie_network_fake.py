"""A Lie table that reports what a networked one does, for Pilot tests of the networked display.

It is a `LocalTable` (the oracle plays the game, bots move with no delay) whose events are those
of a networked seat: setup progress before the first state (held until the test says go), every
revealed front VERIFIED, or one seat's first play FAILED with the fault that accompanies it, the
human's claimed fronts arriving only when the test says so, and the other seats people (not our
own bots), so that leaving asks first.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from fairdeal.engine.lie import Claim, LieOptions, LieView
from fairdeal.p2p.table.core.api import (
    CardsVerified,
    FaultDetected,
    ProofStatus,
    SeatInfo,
    SetupProgress,
    TableEvent,
)
from fairdeal.p2p.table.runtime.local import LocalTable

FRIENDS = ("Ben", "Cleo", "Dan", "Eve", "Finn")


class NetworkLikeLieTable(LocalTable):
    def __init__(
        self,
        players: int = 3,
        *,
        seed: int = 1,
        cheat_seat: int | None = None,
        hold_setup: bool = False,
        hold_fronts: bool = False,
        defer_claims: bool = False,
        claim_pace: float = 0.0,
        **options: Any,
    ) -> None:
        super().__init__(
            players,
            game="lie",
            seed=seed,
            human_name="Tess",
            options=LieOptions(**options),
            claim_pace=claim_pace,
        )
        self._seats = tuple(
            info if info.is_me else SeatInfo(FRIENDS[seat - 1], f"code {seat}", False, False)
            for seat, info in enumerate(self._seats)
        )
        self.cheat_seat = cheat_seat
        self.go = asyncio.Event()  # setup may finish (hold_setup)
        if not hold_setup:
            self.go.set()
        self.hold_fronts = hold_fronts
        self.held: list[CardsVerified] = []  # our claims' fronts, on their way
        self.defer_claims = defer_claims
        self.pending: list[Claim] = []  # our claims not yet settled (defer_claims)
        self._setup_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Returns at once, as a networked session's does: setup goes on in the background."""
        if self._setup_task is not None:
            return
        players = len(self._seats)
        for seat in range(players):
            self._emit(SetupProgress("keys", seat, seat + 1, players, seat))
        self._emit(SetupProgress("shuffle", 1, 1, players, 7))
        self._setup_task = asyncio.create_task(self._finish_setup())

    async def _finish_setup(self) -> None:
        await self.go.wait()
        await super().start()

    async def wait_idle(self) -> None:
        await self.go.wait()
        while self._bot_task is None:  # the setup task has yet to start the game
            await asyncio.sleep(0)
        await super().wait_idle()

    async def close(self) -> None:
        if self._setup_task is not None:
            self._setup_task.cancel()
        await super().close()

    async def act(self, action: Any) -> None:
        """With `defer_claims`, our claim waits to be settled, as a networked one does."""
        if self.defer_claims and isinstance(action, Claim):
            self.game.check_action(self.view(), action)
            self.pending.append(action)
            return
        await super().act(action)

    def lose_race(self, seat: int) -> None:
        """Another seat's claim of our pending card wins its race: ours is void (no card)."""
        for claim in self.pending:
            self._apply(seat, claim)
        self.pending = []
        self._wake.set()

    def view(self) -> Any:
        """Our view without the fronts still on their way (their shares have not all come) and,
        in Phase 1, without the cards we claimed that are not settled yet (as TablePeer's)."""
        view: LieView = super().view()
        waiting = {card.slot for event in self.held for card in event.cards}
        claimed = {claim.slot for claim in self.pending}
        if claimed:
            left = tuple(slot for slot in view.state.table if slot not in claimed)
            state = replace(view.state, table=left)
            view = replace(view, state=state)
        if not waiting:
            return view
        known = {s: f for s, f in view.knowledge.items() if s not in waiting}
        return replace(view, knowledge=known)

    def arrive(self) -> None:
        """The others' shares came: the held fronts are proved and known."""
        held, self.held = self.held, []
        for event in held:
            super()._emit(event)

    def _bot_actors(self) -> list[int]:
        return [] if self._stopped else super()._bot_actors()

    def _emit(self, event: TableEvent) -> None:
        if not isinstance(event, CardsVerified):
            super()._emit(event)
            return
        failed = event.reason == "play" and event.seat == self.cheat_seat and not self._stopped
        proof = ProofStatus.FAILED if failed else ProofStatus.VERIFIED
        event = replace(event, cards=tuple(replace(c, proof=proof) for c in event.cards))
        if self.hold_fronts and event.reason == "claim":
            self.held.append(event)
            return
        super()._emit(event)
        if failed:  # a networked table stops on the fault that a failed proof is
            self._stopped = True
            slots = ", ".join(str(card.slot) for card in event.cards)
            super()._emit(
                FaultDetected(event.seat, "a decryption share's proof failed", f"slots {slots}")
            )
