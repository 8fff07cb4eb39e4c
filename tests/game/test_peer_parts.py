"""A networked seat's parts hold no pointer back to the seat (DESIGN.md, "Small machines"): the
peer (p2p/table/runtime/peer.py) makes the pump, the forwards, the reporting, the seat's life,
the recovery, the silence watch, the departures and the watchers, and wires them; none of them
keeps the `TablePeer`, neither as an attribute nor through a bound method or a closure of it.
Before, the pump kept the peer itself and the silence watch and the departures its methods."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.table.core.api import EventHistory, Notice
from fairdeal.p2p.table.runtime.evidence import EvidenceFile
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.runtime.randomness import table_secret_name
from fairdeal.p2p.table.runtime.reporting import Reporter

from .support import open_table, play_to_end


def reaches(value: Any, peer: TablePeer) -> bool:
    """Whether `value` is the peer, a method bound to it, or a function closing over it."""
    if value is peer or getattr(value, "__self__", None) is peer:
        return True
    cells = getattr(value, "__closure__", None) or ()
    return any(
        reaches(cell.cell_contents, peer) for cell in cells if cell.cell_contents is not value
    )


def fields(part: object) -> dict[str, Any]:
    names = [*getattr(part, "__dict__", {})]
    for cls in type(part).__mro__:
        names += [n for n in getattr(cls, "__slots__", ()) if hasattr(part, n)]
    return {name: getattr(part, name) for name in names}


def runtime_parts(peer: TablePeer) -> dict[str, object]:
    """The peer's attributes that are objects of the async runtime (its parts)."""
    return {
        name: value
        for name, value in vars(peer).items()
        if type(value).__module__.startswith("fairdeal.p2p.table.runtime.")
    }


async def test_no_part_of_a_seat_keeps_the_seat(tmp_path: Path) -> None:
    table = await open_table(2, tmp_path, LarryOptions(short_game=True))
    try:
        await play_to_end(table, timeout=60)
        for peer in table.peers:
            parts = runtime_parts(peer)
            expected = {"pump", "post", "reporter", "life", "recovery", "watch_silence"}
            assert expected | {"departures", "watch"} <= {n.lstrip("_") for n in parts}
            for name, part in parts.items():
                back = [f for f, value in fields(part).items() if reaches(value, peer)]
                assert back == [], f"{name} keeps the seat in {back}"
    finally:
        await table.close()


async def test_every_forward_a_seat_used_is_on_its_disk_once(tmp_path: Path) -> None:
    """The pump hands the forwards the table used to the post, which adds them to the secrets
    file before their receipts go out; once written, none is written again."""
    table = await open_table(3, tmp_path, LarryOptions(short_game=True), seed=2)
    try:
        await play_to_end(table, timeout=60)
        written = 0
        for peer in table.peers:
            assert peer.table is not None and not peer.table.kept_forwards  # none left over
            kept = peer.secrets.get(table_secret_name(table.roster.table, "forwards"), [])
            transfers = [(f["transfer"], f["slot"]) for f in kept]
            assert len(transfers) == len(set(transfers)), "a forward was written twice"
            assert all(f["m"]["to"] == peer.seat for f in kept)  # only what it was given
            written += len(kept)
        assert written, "no give-away at this table: pick another seed"
    finally:
        await table.close()


class UntimedTable:
    """Just what a drain reads of a table; whether seats act at once is only asked for timings."""

    def __init__(self, events: list[Any]) -> None:
        self.events = events

    def simultaneous(self) -> bool:
        raise AssertionError("an untimed seat asked whether the seats act at once")


def test_a_seat_nobody_times_reports_every_event_and_times_nothing(tmp_path: Path) -> None:
    """The app's seat is given no timings (only simulate, the benchmarks and tests read them):
    its reporter still hands every event on, and measures nothing."""
    history = EventHistory()
    reporter = Reporter(history, None, EvidenceFile(tmp_path / "t.transcript", print))
    said = [Notice("one"), Notice("two")]
    table = UntimedTable(list(said))
    reporter.drain(table, None)  # type: ignore[arg-type]
    assert list(history.events) == said and table.events == []
