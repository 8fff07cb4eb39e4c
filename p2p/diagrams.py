"""The state machines' diagrams, drawn from their transition tables.

The fair-deck request server (p2p/table/core/requests.py) and the lobby's host and guest machines
(p2p/lobby/phases.py) are each a transition table, and so are a game's own parts, which its table
driver lists (`TableDriver.machines`). `python -m fairdeal.p2p.diagrams` writes
docs/state-machines/<machine>.md (a mermaid stateDiagram) for every machine in `machines()`;
`--check` only reports the ones that differ (tests/p2p/test_state_diagrams.py runs it, so a
committed diagram always matches the code).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Generic, TypeVar

from fairdeal.p2p.lobby import phases
from fairdeal.p2p.table.core import giveaways, requests
from fairdeal.p2p.table.core.games import TABLES, table_class
from fairdeal.p2p.table.runtime import watchdog

StateT = TypeVar("StateT", bound=Enum)
EventT = TypeVar("EventT", bound=Enum)


@dataclass(frozen=True, slots=True)
class Machine(Generic[StateT, EventT]):
    """A machine's file name, title, one paragraph saying what it is, and its table; with
    `columns`, its per-state rules (who acts next, when it is done) drawn as a table under it."""

    name: str
    title: str
    about: str
    transitions: Mapping[tuple[StateT, EventT], StateT]
    initial: StateT
    columns: tuple[str, ...] = ()  # a table under the diagram: the state, then these columns
    rows: Mapping[StateT, tuple[str, ...]] = field(default_factory=dict)


MACHINES: tuple[Machine[Any, Any], ...] = (
    Machine(
        "request-server",
        "The fair-deck request server",
        "How a table serves the engine's requests (engine/requests.py) with the fair deck: "
        "p2p/table/core/requests.py, `TRANSITIONS`, and under it `STATES`: per state who acts "
        "next and when the request is done. A self-loop is an envelope the state takes while it "
        "waits for more (protocol.md 10.3-10.10).",
        requests.TRANSITIONS,
        requests.ServiceState.IDLE,
        ("who acts next", "done when"),
        {state: (rule.who, rule.done_when) for state, rule in requests.STATES.items()},
    ),
    Machine(
        "give-away-forwards",
        "A give-away's forwards",
        "How one seat follows a give-away (the engine's `Transfer`, protocol.md 10.8): "
        "p2p/table/core/giveaways.py, `TRANSITIONS`, and under it `WHO_ACTS`. The giver's "
        "signed forward (forwards.py) travels sealed to the receiver and relayed by any seat "
        "(sealed.py); the receiver opens it and signs its receipt, accusing the giver with the "
        "forward if it fails; every seat judges the receipt. A receipt that blames a seat "
        "stops the table and moves nothing; a receipt of this seat's own may come while it "
        "still waits for the forward (signed before a restart that lost the kept forward).",
        giveaways.TRANSITIONS,
        giveaways.GiftState.IDLE,
        ("who acts next",),
        {state: (who,) for state, who in giveaways.WHO_ACTS.items()},
    ),
    Machine(
        "host-lobby",
        "The host's lobby",
        "How the host's lobby moves (p2p/lobby/machines.py, `HostLobby`): p2p/lobby/phases.py, "
        "`HOST_TRANSITIONS`. An edge is a guest's message by its kind, a channel, or a call of "
        "the host's own; a self-loop changes seats or readiness, not the phase (protocol.md 5).",
        phases.HOST_TRANSITIONS,
        phases.LobbyPhase.OPEN,
    ),
    Machine(
        "guest-lobby",
        "A guest's lobby",
        "How a guest's lobby moves (p2p/lobby/machines.py, `GuestLobby`): p2p/lobby/phases.py, "
        "`GUEST_TRANSITIONS`. An edge is the host's message by its kind; once started or closed "
        "the lobby takes none (protocol.md 5).",
        phases.GUEST_TRANSITIONS,
        phases.LobbyPhase.OPEN,
    ),
    Machine(
        "silence-watch",
        "The silence watch",
        "Who a seat shows as holding up the game (p2p/table/runtime/watchdog.py, `SilenceWatch`): "
        "`TRANSITIONS`. An edge is an envelope applied or a tick by what it finds; a seat is "
        "named once silent past the limit, counted from the later of the last envelope applied "
        "and the moment the table began to wait for it (protocol.md 10.6).",
        watchdog.TRANSITIONS,
        watchdog.Silence.IDLE,
    ),
)


def machines() -> tuple[Machine[Any, Any], ...]:
    """The shared machines, then each game's own (its table driver's `machines`), for every game
    with a table registered."""
    return MACHINES + tuple(m for game in TABLES.names() for m in table_class(game).machines)


def _node(state: Enum) -> str:
    return str(state.name)


def mermaid(machine: Machine[Any, Any]) -> str:
    """The machine as a markdown page holding one mermaid stateDiagram, in table order."""
    lines = [
        f"# {machine.title}",
        "",
        "<!-- generated by `python -m fairdeal.p2p.diagrams`: do not edit -->",
        "",
        machine.about,
        "",
        "```mermaid",
        "stateDiagram-v2",
        f"    [*] --> {_node(machine.initial)}",
    ]
    for (state, event), target in machine.transitions.items():
        lines.append(f"    {_node(state)} --> {_node(target)}: {event.value}")
    lines.append("```")
    if machine.columns:
        lines += ["", "| state | " + " | ".join(machine.columns) + " |"]
        lines.append("|" + " --- |" * (len(machine.columns) + 1))
        for state, cells in machine.rows.items():
            lines.append(f"| {_node(state)} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def stale(folder: Path) -> list[Path]:
    """The diagrams under `folder` that are missing or differ from their machine's table."""
    return [
        folder / f"{m.name}.md"
        for m in machines()
        if not (folder / f"{m.name}.md").is_file()
        or (folder / f"{m.name}.md").read_text(encoding="utf-8") != mermaid(m)
    ]


def write(folder: Path) -> list[Path]:
    """Write every machine's diagram under `folder`; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for machine in machines():
        path = folder / f"{machine.name}.md"
        path.write_text(mermaid(machine), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", nargs="?", type=Path, default=Path("docs/state-machines"))
    parser.add_argument("--check", action="store_true", help="report stale diagrams, write none")
    args = parser.parse_args(argv)
    if args.check:
        differing = stale(args.folder)
        for path in differing:
            print(f"{path} differs from its transition table", file=sys.stderr)
        return 1 if differing else 0
    for path in write(args.folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
