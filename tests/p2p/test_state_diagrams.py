"""docs/state-machines/ holds each state machine's diagram as its transition table draws it."""

from __future__ import annotations

from pathlib import Path

from fairdeal.p2p.diagrams import MACHINES, machines, main, mermaid, stale, write
from fairdeal.p2p.table.core.games import TABLES, table_class

DOCS = Path(__file__).resolve().parents[2] / "docs" / "state-machines"


def test_the_committed_diagrams_are_the_ones_the_transition_tables_draw() -> None:
    assert stale(DOCS) == [], "run `python -m fairdeal.p2p.diagrams` and commit"


def test_a_diagram_edited_by_hand_or_missing_is_reported(tmp_path: Path) -> None:
    write(tmp_path)
    assert stale(tmp_path) == []
    first = tmp_path / f"{MACHINES[0].name}.md"
    first.write_text(first.read_text().replace("IDLE --> SHUFFLE", "IDLE --> SHARES"))
    assert stale(tmp_path) == [first]
    assert main([str(tmp_path), "--check"]) == 1
    first.unlink()
    assert stale(tmp_path) == [first]
    assert main([str(tmp_path)]) == 0 and main([str(tmp_path), "--check"]) == 0


def test_every_transition_is_an_edge_of_its_diagram() -> None:
    for machine in machines():
        page = mermaid(machine)
        for (state, event), target in machine.transitions.items():
            assert f"{state.name} --> {target.name}: {event.value}" in page


def test_every_state_of_a_machine_is_drawn_and_reached_from_its_start() -> None:
    for machine in machines():
        reached, frontier = {machine.initial}, [machine.initial]
        while frontier:
            state = frontier.pop()
            for (source, _), target in machine.transitions.items():
                if source is state and target not in reached:
                    reached.add(target)
                    frontier.append(target)
        assert reached == set(type(machine.initial)), machine.name
        page = mermaid(machine)
        assert all(f" {state.name}" in page for state in reached)


def test_a_games_own_machines_are_drawn_beside_the_shared_ones() -> None:
    """A game's table driver lists its own parts' machines (The Lie's lockstep steps and
    claims, p2p/games/lie/lockstep.py); they are drawn and checked like the shared ones."""
    own = [m for game in TABLES.names() for m in table_class(game).machines]
    assert {m.name for m in own} >= {"lie-lockstep", "lie-claim"}
    assert all(m in machines() and (DOCS / f"{m.name}.md").is_file() for m in own)
