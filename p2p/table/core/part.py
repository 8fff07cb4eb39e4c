"""What a game's table part provides: the per-game table protocol, in three parts.

The table driver (p2p/table/core/driver.py) serves every game the same way: setup, the fair deck
serving the engine's requests (p2p/table/core/requests.py), faults, give-aways. A game adds its
envelope kinds, its own envelopes and what its engine events prove, as a `TableDriver` subclass
that overrides only the public hooks below and calls only the driver's public services
(`take_step`, `take_output`, `stop`, `require_shares`, `apply_owed_shares`, `masked_slot`,
`engine_slot`, `on_received`):

- `TablePart`: what every game writes itself (the driver has none of it): its name and envelope
  kinds, the options its lobby signs, how it checks and publishes an action.
  A turn-based game needs little more (tests/third_game/site/highcard/table.py).
- `TableHooks`: what the driver does by default for a game played in turns, which a game
  overrides where it differs (its coins, its first state, its deck's sizes, its ordering rule,
  its own envelopes beside the act, what it keeps of an act before the engine applies it).
- `ConcurrentPart`: only a game with a phase where seats act at once (The Lie's Phase 1, T3)
  overrides these; the driver's defaults say "never": no steps, nothing held back.

tests/p2p/test_table_part.py checks every registered game's table against them. A game's table
is registered under the `fairdeal.tables` entry-point group and found with
`p2p.table.core.games.table_class(name)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from fairdeal.engine.requests import Arrange
from fairdeal.engine.step import Step
from fairdeal.p2p.deck import CardDealt
from fairdeal.p2p.lobby.roster import OptionValue
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.outbox import Expect


class TablePart(Protocol):
    """What every game's table writes itself: the driver has no default for any of it."""

    # envelope kinds: the join every seat signs, an action
    game_name: ClassVar[str]
    join_kind: ClassVar[str]
    act_kind: ClassVar[str]

    # the terms the lobby shows and signs
    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]: ...

    # an action of this seat, checked as every peer will check it, queued for signing
    def publish_action(self, action: Any, *, check: bool = True) -> None: ...


class TableHooks(Protocol):
    """What the driver does by default for a game played in turns; a game overrides one where
    it differs."""

    received_kind: ClassVar[str]  # a give-away's receipt (a game with Transfer requests)
    setup_coins: ClassVar[tuple[str, ...]]  # joint coins flipped before the first state
    # the game's own machines, drawn beside the shared ones (p2p/diagrams.py `Machine`)
    machines: ClassVar[tuple[Any, ...]]

    @classmethod
    def options_for_join(cls, options: Any) -> Any: ...

    # the game's ordering rule and its first state
    def next_action(self) -> Expect | None: ...

    def new_game_step(self) -> Step[Any, Any]: ...

    def deck_id(self) -> str: ...

    # how large its lists and its own envelopes can be (p2p/table/core/sizes.py)
    def card_bounds(self) -> tuple[int, int] | None: ...

    def game_bodies(self) -> dict[str, int]: ...

    # one of its own envelopes applied (DeckFault naming the culprit): by default its act, read
    # the same way for every game, and a give-away's receipt
    def on_game_envelope(self, envelope: Envelope, head: bytes) -> None: ...

    # an act's action before the engine applies it: refused (DeckFault), or what it changes kept
    def on_act(self, seat: int, action: Any) -> None: ...

    # what its engine events mean at the table
    def on_step_event(self, event: Any) -> None: ...

    def on_arranged(self, request: Arrange, seed: bytes) -> None: ...

    # what a seat sees and decides, and what it owes
    def view(self) -> Any: ...

    def my_turn(self) -> bool: ...

    @property
    def choice_kinds(self) -> frozenset[str]: ...

    def owes(self) -> dict[int, tuple[str, ...]]: ...

    def counters(self) -> Mapping[str, int]: ...


class ConcurrentPart(Protocol):
    """Only a game with a phase where seats act at once (The Lie's Phase 1, T3): the driver's
    defaults say the seats always act in turn. A game that overrides any of these overrides
    `simultaneous`."""

    def simultaneous(self) -> bool: ...

    def follows_up(self) -> bool: ...

    def may_choose(self) -> bool: ...

    def pace(self, held: Sequence[Envelope]) -> None: ...

    # deals inside the game's own steps (The Lie's claims, T3)
    def deals_in_steps(self, state: Any) -> bool: ...

    def step_under_way(self) -> bool: ...

    def on_applied(self, envelope: Envelope, head: bytes) -> None: ...

    def on_card_dealt(self, event: CardDealt) -> None: ...

    def restore_signed(self, envelope: Envelope) -> None: ...


def names_of(part: type) -> frozenset[str]:
    """The members a part protocol lists."""
    members = frozenset(name for name in vars(part) if not name.startswith("_"))
    return members | frozenset(part.__annotations__)


REQUIRED: frozenset[str] = names_of(TablePart)
CONCURRENT: frozenset[str] = names_of(ConcurrentPart)
HOOKS: frozenset[str] = REQUIRED | names_of(TableHooks) | CONCURRENT
