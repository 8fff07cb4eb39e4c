"""What the engine asks its driver to do, and how the driver answers: one exchange (protocol.md
7.4). Every request has an `id`, numbered from 0 per game.

The public state already reflects a request when it is issued (a dealt slot is in the hand); the
driver makes it true privately (the seat learns the face) and answers with `Ack` or, for a Reveal,
with `Faces`. Requests are answered strictly in order; `state.pending[0]` is the next one.
Slots are never reused: a new hand and an L14 reshuffle allocate fresh slot ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.engine.records import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class NewDeck:
    """Shuffle the whole deck afresh into `slots` (one slot per card), at the start of a hand."""

    id: int
    slots: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Deal:
    """Give the faces of `slots` (taken from the pick-up pile) privately to `seat`."""

    id: int
    seat: int
    slots: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Transfer:
    """Hand card `slot` from `from_seat` to `to_seat`, who learns its face (L11 give away)."""

    id: int
    slot: int
    from_seat: int
    to_seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class Reshuffle:
    """L14: shuffle the cards of `old` (the discard pile) into the new pick-up pile `new`."""

    id: int
    old: tuple[int, ...]
    new: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Reveal:
    """Open `slots` to everyone; answer with Faces. `reason`: "doubt", "face_up" or "score"."""

    id: int
    slots: tuple[int, ...]
    reason: str


@quick_init
@dataclass(frozen=True, slots=True)
class NewGroupedDeck:
    """Lay a fresh deck into `slots` where backs are public (The Lie, T1): slot `slots[i]` gets a
    card whose back is `backs[i]`, and the cards of each back are shuffled among that back's slots.
    """

    id: int
    slots: tuple[int, ...]
    backs: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class GroupedReshuffle:
    """Reshuffle the cards of `old` into the fresh slots `new` within backs (The Lie, T9): the card
    in `new[i]` has the back of the card in `old[i]`; fronts are shuffled among equal backs.
    """

    id: int
    old: tuple[int, ...]
    new: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Arrange:
    """Put `slots` into a fair random public order (a joint coin at a table); answer with
    Arrangement. `reason`: "layout" (where each card lies on the table) or "prize_pile" (T4).
    """

    id: int
    slots: tuple[int, ...]
    reason: str


Request = (
    NewDeck | Deal | Transfer | Reshuffle | Reveal | NewGroupedDeck | GroupedReshuffle | Arrange
)


# -- the driver's answers (resolutions), applied as the DRIVER seat --------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class Ack:
    """The driver has served request `request` (any request but Reveal and Arrange)."""

    request: int


@quick_init
@dataclass(frozen=True, slots=True)
class Faces:
    """The faces (card ids) of a Reveal request's slots, in the order of its `slots`."""

    request: int
    faces: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Arrangement:
    """The slots of an Arrange request, in their new (fair random, public) order."""

    request: int
    slots: tuple[int, ...]


Resolution = Ack | Faces | Arrangement
