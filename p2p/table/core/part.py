"""What a game's table part provides: the per-game table protocol.

The table driver (p2p/table/core/driver.py) serves every game the same way: setup, the fair deck
serving the engine's requests (p2p/table/core/requests.py), faults, give-aways. A game adds its
envelope kinds, its ordering rule, its own envelopes and what its engine events prove, as a
`TableDriver` subclass that overrides only the public hooks below and calls only the driver's
public services (`take_step`, `take_output`, `stop`, `require_shares`, `apply_owed_shares`,
`masked_slot`, `engine_slot`, `on_received`). tests/p2p/test_table_part.py checks that every
registered game's table does so. A game's table is registered under the `fairdeal.tables`
entry-point group and found with `p2p.table.core.games.table_class(name)`.
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
    """The hooks a game's table overrides (each has a default in `TableDriver` but the first
    block's names and `lobby_options`)."""

    # envelope kinds: the join every seat signs, an action, a give-away's receipt (if any)
    game_name: ClassVar[str]
    join_kind: ClassVar[str]
    act_kind: ClassVar[str]
    received_kind: ClassVar[str]
    setup_coins: ClassVar[tuple[str, ...]]  # joint coins flipped before the first state

    # the terms the lobby signs and every join carries
    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]: ...

    @classmethod
    def options_for_join(cls, options: Any) -> Any: ...

    # the game's ordering rule and its first state
    def next_action(self) -> Expect | None: ...

    def new_game_step(self) -> Step[Any, Any]: ...

    def deck_id(self) -> str: ...

    # how large its lists and its own envelopes can be (p2p/table/core/sizes.py)
    def card_bounds(self) -> tuple[int, int] | None: ...

    def game_bodies(self) -> dict[str, int]: ...

    # its own envelopes, and what its engine events prove
    def on_applied(self, envelope: Envelope, head: bytes) -> None: ...

    def on_game_envelope(self, envelope: Envelope, head: bytes) -> None: ...

    def on_step_event(self, event: Any) -> None: ...

    def on_card_dealt(self, event: CardDealt) -> None: ...

    def on_arranged(self, request: Arrange, seed: bytes) -> None: ...

    # deals inside the game's own steps (The Lie's claims, T3)
    def deals_in_steps(self, state: Any) -> bool: ...

    def step_under_way(self) -> bool: ...

    # what a seat sees and decides, and what it owes
    def view(self) -> Any: ...

    def my_turn(self) -> bool: ...

    @property
    def choice_kinds(self) -> frozenset[str]: ...

    def publish_action(self, action: Any, *, check: bool = True) -> None: ...

    def simultaneous(self) -> bool: ...

    def follows_up(self) -> bool: ...

    def may_choose(self) -> bool: ...

    def pace(self, held: Sequence[Envelope]) -> None: ...

    def owes(self) -> dict[int, tuple[str, ...]]: ...

    def counters(self) -> Mapping[str, int]: ...

    def restore_signed(self, envelope: Envelope) -> None: ...


HOOKS: frozenset[str] = frozenset(
    name for name in vars(TablePart) if not name.startswith("_")
) | frozenset(TablePart.__annotations__)
