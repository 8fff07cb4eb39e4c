"""Every Lie scenario passes; every ruling T1-T10 has one, and so do the rulebook's examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairdeal.engine.scenario import ScenarioError, run_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "lie"
FILES = sorted(SCENARIOS.glob("*.json"))


def _load(name: str) -> dict[str, object]:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario_passes(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["game"] == "lie"
    result = run_scenario(data)
    assert result.passed, "\n".join(result.failures)


def test_every_ruling_has_a_scenario_named_after_it() -> None:
    names = {path.name[:3] for path in FILES}
    assert {f"T{n:02d}" for n in range(1, 11)} <= names
    cited: set[str] = set()
    for path in FILES:
        cited.update(json.loads(path.read_text(encoding="utf-8"))["rulings"])
    assert {f"T{n}" for n in range(1, 11)} <= cited
    for required in (
        "rulebook-trick-example.json",
        "T10-rulebook-final-scoring.json",
        "T03-race-for-one-slot.json",
        "T07-two-player-round-end.json",
        "T07-three-player-round-end.json",
    ):
        assert (SCENARIOS / required).exists(), required


def test_a_wrong_expectation_fails_with_the_difference() -> None:
    data = _load("rulebook-trick-example.json")
    data["script"][3]["expect"]["hand_sizes"] = [2, 2, 4, 0]  # type: ignore[index]
    data["script"][3]["expect"]["events"][1]["seat"] = 1  # type: ignore[index]
    result = run_scenario(data)
    text = "\n".join(result.failures)
    assert "hand_sizes expected [2, 2, 4, 0], got [2, 2, 4, 1]" in text
    assert "{'type': 'TrickWon', 'seat': 1, 'number': 214}" in text


def test_an_expected_error_that_does_not_happen_fails() -> None:
    data = _load("rulebook-trick-example.json")
    data["script"][2]["error"] = "MustLead"  # type: ignore[index]
    result = run_scenario(data)
    assert result.failures == ["step 2: expected MustLead, but it was accepted"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 7}, "options: The Lie needs 2-6 players, not 7"),
        ({"options": {"hand_size": "x"}}, "options: $.hand_size"),
        ({"hands": [["r5"], [], [], []]}, "no card is called 'r5'"),
        ({"hands": [["r1/r1"], [], [], []]}, "no card is called 'r1/r1'"),
        ({"script": [{"seat": 0, "do": "jump"}]}, "'do' must be claim, place, play or pass"),
        ({"script": [{"seat": 0, "do": "place"}]}, "a place step names its 'side'"),
        (
            {"script": [{"seat": 0, "do": "claim", "card": "r1", "side": "left"}]},
            "a claim has no side",
        ),
        ({"game": "chess"}, "'game' must be one of larry, lie"),
        ({"deck": []}, "unknown key(s) deck"),
    ],
)
def test_malformed_scenarios_are_rejected(change: dict[str, object], message: str) -> None:
    data = _load("rulebook-trick-example.json")
    data.update(change)
    with pytest.raises(ScenarioError) as info:
        run_scenario(data)
    assert message in str(info.value)
