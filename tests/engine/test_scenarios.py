"""Every scenario file in tests/scenarios/larry passes; every ruling L1-L22 has at least one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairdeal.engine.scenario import ScenarioError, run_scenario

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "larry"
FILES = sorted(SCENARIOS.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario_passes(path: Path) -> None:
    result = run_scenario(json.loads(path.read_text(encoding="utf-8")))
    assert result.passed, "\n".join(result.failures)


def test_every_ruling_has_a_scenario() -> None:
    cited: set[str] = set()
    for path in FILES:
        cited.update(json.loads(path.read_text(encoding="utf-8")).get("rulings", []))
        assert path.name.startswith(("L", "rulebook")), path.name
    missing = [f"L{n}" for n in range(1, 23) if f"L{n}" not in cited]
    assert not missing
    names = {path.name[:3] for path in FILES}
    assert {f"L{n:02d}" for n in range(1, 23)} <= names  # one file named after each ruling
    assert (SCENARIOS / "rulebook-example.json").exists()


def test_a_wrong_expectation_fails_with_a_clear_difference() -> None:
    data = json.loads((SCENARIOS / "rulebook-example.json").read_text(encoding="utf-8"))
    data["expect"]["hand_sizes"] = [6, 6, 7, 9]
    data["expect"]["events"][1]["loser"] = 3
    result = run_scenario(data)
    assert not result.passed
    text = "\n".join(result.failures)
    assert "hand_sizes expected [6, 6, 7, 9], got [6, 6, 8, 7]" in text
    assert "'loser': 3" in text


def test_an_expected_error_that_does_not_happen_fails() -> None:
    data = json.loads((SCENARIOS / "L07-empty-pile.json").read_text(encoding="utf-8"))
    data["script"][1]["error"] = "LimitExceeded"
    result = run_scenario(data)
    assert result.failures == ["step 1: expected LimitExceeded, but it was accepted"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": "four"}, "'players' must be an integer"),
        ({"colour": "red"}, "unknown key(s) colour"),
        ({"options": {"hand_size": "x"}}, "options: $.hand_size"),
        ({"hands": [["8"], [], [], []]}, "no (more) card named '8'"),
        ({"script": [{"seat": 0, "do": "jump"}]}, "'do' must be"),
    ],
)
def test_malformed_scenarios_are_rejected(change: dict[str, object], message: str) -> None:
    data = json.loads((SCENARIOS / "rulebook-example.json").read_text(encoding="utf-8"))
    data.update(change)
    with pytest.raises(ScenarioError) as info:
        run_scenario(data)
    assert message in str(info.value)
