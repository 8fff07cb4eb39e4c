"""The silence watch of a networked seat: who holds the table up, for how long, owing what.

A seat silent past the limit is shown as holding up the game (`SeatStatus`), and the table
waits (protocol.md 10.6). A seat's silence counts from the later of the last envelope applied
and the moment the table began to wait for it (in a phase in steps a quiet table waits for
nobody until someone acts). When the table is stuck on a seat's reveal of a joint coin while
someone is named, `withheld` says so (p2p/table/core/withheld.py): the others may then end the
table.

`SilenceWatch` is a small machine, sans-IO like h11's `_state.py`: its states (`Silence`), what
moves it (`Seen`) and `TRANSITIONS` are all in this file, and docs/state-machines/silence-watch.md
is drawn from that table (`python -m fairdeal.p2p.diagrams`). It takes typed inputs, an
envelope applied (`Applied`) or a tick with the caller's monotonic time (`Tick`, built from the
table by `observe`), and returns the `SeatStatus`es to show; it holds no table, log or peer.
An input its state does not accept is refused (`SilenceRefused`) and changes nothing. The seat
(p2p/table/runtime/peer.py) wires it: it ticks it a few times per limit and shows what it says.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.table.core.api import SeatStatus
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.owing import owed_off_the_log
from fairdeal.p2p.table.core.withheld import WithheldReveal, withheld_reveal


class Silence(StrEnum):
    """Where the watch is."""

    IDLE = "idle"  # the table waits for nobody (nothing owed, or a quiet phase in steps)
    WAITING = "waiting"  # it waits for someone, nobody past the limit yet
    NAMED = "named"  # seats silent past the limit are named, with what they owe
    WITHHELD = "withheld"  # and the table is stuck on a coin reveal: it may be ended over it
    OVER = "over"  # the game ended: nobody is named any more


class Seen(StrEnum):
    """What moves the watch: an envelope applied, or a tick by what it finds."""

    APPLIED = "an envelope applied (the clock restarts)"
    NOBODY_OWES = "tick, nobody owes"
    OWED = "tick, someone owes within the limit"
    SILENT = "tick, someone silent past the limit"
    WITHHOLDING = "tick, silent past the limit and stuck on a coin reveal"
    GAME_OVER = "tick, the game is over"


S, E = Silence, Seen

_TICKS = {
    E.NOBODY_OWES: S.IDLE,
    E.OWED: S.WAITING,
    E.SILENT: S.NAMED,
    E.WITHHOLDING: S.WITHHELD,
    E.GAME_OVER: S.OVER,
}

# The whole machine. A tick goes where it finds the table, from any state until the game is over,
# except that nobody is named on the tick that first finds them owing (their silence starts
# then, and the limit is above 0): from IDLE a tick names nobody. An envelope applied restarts
# the clock and names nobody at once. Once over, only another `GAME_OVER` tick or an envelope
# applied is taken: a tick that finds the game going is refused.
TRANSITIONS: Mapping[tuple[Silence, Seen], Silence] = {
    **{
        (state, seen): target
        for state in (S.IDLE, S.WAITING, S.NAMED, S.WITHHELD)
        for seen, target in _TICKS.items()
        if state != S.IDLE or target not in (S.NAMED, S.WITHHELD)
    },
    **{(state, E.APPLIED): state for state in Silence},
    (S.OVER, E.GAME_OVER): S.OVER,
}


class SilenceRefused(ValueError):
    """An input the watch's state does not take; nothing changed."""


@dataclass(frozen=True, slots=True)
class Applied:
    """An envelope was applied at `now` (monotonic seconds)."""

    now: float


@dataclass(frozen=True, slots=True)
class Tick:
    """The table as a tick finds it at `now` (monotonic seconds): the other seats it waits for
    with what each owes (`held_up_by`), which seats have a channel to this one, the coin reveal
    it is stuck on if any (its `waited` is filled in here), and whether the game is over."""

    now: float
    owed: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    connected: Collection[int] = frozenset()
    reveal: WithheldReveal | None = None
    over: bool = False


def held_up_by(table: TableDriver, log: TableLog, me: int) -> dict[int, tuple[str, ...]]:
    """The other seats the table waits for, with what each owes (`TableDriver.owes`: the seat
    whose turn it is, every seat that owes shares, a give-away's giver; in a phase in steps what
    each owes to the step under way). A seat whose next envelope is already here is not silent:
    the log holds it for others. Only that one counts (protocol.md 10.6): an envelope for a
    later place, which any seat may sign and the relay carries everywhere, hides no staller;
    nor does any envelope hide a giver that owes its private forward."""
    if table.expected_seat() is None:
        return {}
    private = owed_off_the_log(table)
    return {
        seat: what
        for seat, what in table.owes().items()
        if seat != me and (seat in private or not log.holds(seat, log.next_seq(seat)))
    }


def observe(
    table: TableDriver, log: TableLog, me: int, now: float, connected: Collection[int]
) -> Tick:
    """What a tick at `now` finds at seat `me`'s table (`connected`: the seats with a channel)."""
    if table.over:
        return Tick(now, over=True)
    return Tick(now, held_up_by(table, log, me), connected, withheld_reveal(table, log, 0.0))


class SilenceWatch:
    """One seat's silence watch (see the module docstring): feed it inputs, show what it returns."""

    def __init__(self, limit: float, now: float) -> None:
        """`limit`: seconds of silence before a seat is named; `now`: when the watch starts
        (monotonic), which counts as the last envelope applied."""
        if not limit > 0:
            raise ValueError(f"the silence limit is a number of seconds above 0, not {limit}")
        self.limit = limit
        self.state = Silence.IDLE
        self.waiting_since = now  # the last envelope applied
        self.reported: frozenset[int] = frozenset()  # seats last named as holding up the game
        self.withheld: WithheldReveal | None = None  # a coin reveal held up past the limit
        self._held_since: dict[int, float] = {}  # since when each seat owed, continuously

    @property
    def interval(self) -> float:
        """How often to tick: a few times per limit, at least every second."""
        return max(0.05, min(1.0, self.limit / 4))

    def feed(self, seen: Applied | Tick) -> list[SeatStatus]:
        """Take one input; the statuses to show: a seat no longer named, then each seat named
        with how long it has been silent and what it owes. SilenceRefused if the state does not
        take it (nothing changes then)."""
        if isinstance(seen, Applied):
            self._move(E.APPLIED)
            self.waiting_since = seen.now
            return []
        if seen.over:
            self._move(E.GAME_OVER)
            return []
        held_since = {seat: self._held_since.get(seat, seen.now) for seat in seen.owed}
        waited = {
            seat: seen.now - max(self.waiting_since, since) for seat, since in held_since.items()
        }
        named = frozenset(seat for seat, wait in waited.items() if wait >= self.limit)
        withheld = None
        if named and seen.reveal is not None:
            withheld = replace(seen.reveal, waited=max(waited[seat] for seat in named))
        if withheld is not None:
            event = E.WITHHOLDING
        else:
            event = E.SILENT if named else E.OWED if seen.owed else E.NOBODY_OWES
        self._move(event)
        shown = [SeatStatus(seat, True, None) for seat in sorted(self.reported - named)]
        self._held_since, self.reported, self.withheld = held_since, named, withheld
        for seat in sorted(named):
            what = withheld.what if withheld is not None and withheld.seat == seat else None
            connected = seat in seen.connected
            shown.append(SeatStatus(seat, connected, waited[seat], what, seen.owed[seat]))
        return shown

    def _move(self, seen: Seen) -> None:
        target = TRANSITIONS.get((self.state, seen))
        if target is None:
            raise SilenceRefused(f"the silence watch, {self.state.value}, takes no {seen.value!r}")
        self.state = target
