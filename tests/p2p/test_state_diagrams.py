"""docs/state-machines/ holds each state machine's diagram as its transition table draws it."""

from __future__ import annotations

from pathlib import Path

from fairdeal.p2p.diagrams import MACHINES, machines, main, mermaid, stale, write

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
