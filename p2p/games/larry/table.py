"""Larry's part of the table driver: its envelope kinds, its ordering rule, its first-player coin.

Everything else (setup, the fair deck serving the engine's requests, faults) is the shared
`TableDriver` (p2p.table.core.driver). The log of a Larry table (protocol.md 10.2): seat 0's roster
record, then in seat order join, key, first-player coin commitment and reveal; then the engine's
`pending[0]` request (shuffles in seat order; the shares of a deal or a reveal from each seat that
owes some, in seat order; a give-away receipt from the receiver), and when nothing is pending,
one action by the seat to act (L6).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from fairdeal.engine.larry import Doubt, IllegalAction, LarryOptions, LarryStep, new_game
from fairdeal.engine.larry.codec import to_data
from fairdeal.engine.larry.events import DoubtResolved
from fairdeal.engine.larry.legal import check_action
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.games.larry.presenter import doubt_verification
from fairdeal.p2p.lobby.roster import OptionValue
from fairdeal.p2p.net.kinds import Restart, envelope_kind
from fairdeal.p2p.table.core import sizes
from fairdeal.p2p.table.core.api import Notice, ProofStatus
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.outbox import Publish

GAME = "larry"
# body: {"game", "seats", "options"}: every seat signs the table's terms
JOIN = envelope_kind("larry.join", game=GAME, section="10.1")
# body: an engine action (fairdeal.engine.larry.codec, protocol.md section 7)
ACT = envelope_kind("larry.act", game=GAME, section="10.1", restart=Restart.CHOSEN)
# body: {"slot"} (+ "fault", "forward"): the receiver's receipt
RECEIVED = envelope_kind("larry.received", game=GAME, section="10.1, 10.8")
FIRST_PLAYER_COIN = "first-player"  # L5: the joint coin that picks who starts hand 1


def lobby_options(options: LarryOptions) -> dict[str, OptionValue]:
    """The options shown in the lobby and signed in the roster (the rest are the defaults)."""
    return {"short_game": options.short_game, "hands": options.hands}


def options_for_join(options: LarryOptions) -> Any:
    """The options every seat signs in its join envelope (the first seat comes from the coin)."""
    return to_data(replace(options, first_seat=0))


class LarryTable(TableDriver):
    """One table of Larry as one seat (or an auditor, `deck.seat == seats`) follows it."""

    game_name: ClassVar[str] = GAME
    join_kind: ClassVar[str] = JOIN
    act_kind: ClassVar[str] = ACT
    received_kind: ClassVar[str] = RECEIVED
    setup_coins: ClassVar[tuple[str, ...]] = (FIRST_PLAYER_COIN,)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first_seat: int | None = None
        self._doubt_pile: tuple[tuple[int, int, bool], ...] = ()  # (slot, seat, face_up)
        self._doubt_said: tuple[int, ...] = ()  # the totals announced with those cards

    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]:
        return lobby_options(options)

    @classmethod
    def options_for_join(cls, options: Any) -> Any:
        return options_for_join(options)

    def deck_id(self) -> str:
        return f"hand{self.state.hand_no}"

    def card_bounds(self) -> tuple[int, int]:
        """One list of the whole deck (a new hand's deck; an L14 reshuffle holds fewer)."""
        size = self.options.deck_size
        return size, size

    def game_bodies(self) -> dict[str, int]:
        """A receipt may carry the giver's signed forward (10.8): shares of one card, at most
        one a seat, with its fields and the receiver's account of what failed."""
        return {RECEIVED: sizes.SMALL + sizes.shares_body(self.seats)}

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        """Queue this seat's move (L6) for signing; it must be its turn, and with `check` the
        move must pass `check_action` on its own view (raises IllegalAction, publishing
        nothing)."""
        if self.state is None or self.over or not self.my_turn():
            raise IllegalAction(self.me, "it is not your turn")
        if check:
            check_action(self.view(), action)
        self.outbox.append(Publish(ACT, to_data(action)))

    def new_game_step(self) -> LarryStep:
        seed = self.deck.coin_seed(FIRST_PLAYER_COIN)
        assert seed is not None
        self.first_seat = int.from_bytes(seed[:8], "big") % self.seats  # L5 joint draw
        options = replace(self.options, first_seat=self.first_seat)
        self.events.append(Notice(f"joint coin: seat {self.first_seat} starts hand 1 (L5)"))
        return new_game(self.seats, options)

    def on_act(self, seat: int, action: Any) -> None:
        """A doubt's verification shows the pile as it was before the doubt took it (L9)."""
        if isinstance(action, Doubt):
            state = self.state
            self._doubt_pile = tuple(
                (slot, played_by, slot in state.revealed)
                for slot, played_by in zip(state.pile, state.pile_seats, strict=True)
            )
            self._doubt_said = tuple(state.pile_totals)

    def on_step_event(self, event: Any) -> None:
        if isinstance(event, DoubtResolved):
            self.events.append(self._verification(event))

    def _verification(self, event: DoubtResolved) -> DoubtVerification:
        """L9: every pile card, who played it, its face and proof; the true total; the verdict."""
        # the game's presenter (p2p/games/larry/presenter.py) words it for every front end
        return doubt_verification(event, self._doubt_pile, self._doubt_said, ProofStatus.VERIFIED)
