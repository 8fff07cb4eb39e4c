"""A whole-number option of one game as a player chooses it: one description for the command
line (`fairdeal host`, `fairdeal play`) and the open-table dialog, so that both offer the same
range and refuse an absurd value with the same words. A game's record (ui/screen_game.py) lists
its own; ui/game_options.py turns the choices into the game's engine options."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NumberOption:
    """A whole-number option of one game: its engine field, how it is spelled, its range."""

    name: str  # the engine's (and the lobby's) field: "rounds"
    label: str  # for people: "rounds"
    low: int
    high: int
    default: int
    ruling: str  # the RULINGS id it follows
    short_default: int | None = None  # the value a short game takes, when it sets this one

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def check(self, value: int) -> str | None:
        """None, or the reason `value` is refused, naming the option."""
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{self.label} must be a whole number"
        if not self.low <= value <= self.high:
            return f"{self.label} {value} is out of range: {self.low}-{self.high} ({self.ruling})"
        return None


def checked(option: NumberOption, value: int) -> int:
    """`value`, or ValueError naming the option when it is out of range."""
    problem = option.check(value)
    if problem is not None:
        raise ValueError(problem)
    return value
