"""Each game's table options as a player chooses them: one description for the command line
(`fairdeal host`, `fairdeal play`) and the open-table dialog, so that both offer the same
choices, in the same ranges, and refuse absurd values with the same words.

The values end up in the game's engine options (`LarryOptions`, `LieOptions`) and from there in
the lobby's signed terms (protocol.md 5.3; p2p.table.larry/lie `lobby_options`), so every seat
agrees to them before the first card is dealt. Larry's one choice is the game's length (`--short`,
L18), a yes/no; The Lie has two numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.engine.games import get_game
from fairdeal.engine.lie import LieOptions


@dataclass(frozen=True, slots=True)
class NumberOption:
    """A whole-number option of one game: its engine field, how it is spelled, its range."""

    name: str  # the engine's (and the lobby's) field: "rounds"
    label: str  # for people: "rounds"
    low: int
    high: int
    default: int
    ruling: str  # the RULINGS id it follows

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


LIE_ROUNDS = NumberOption("rounds", "rounds", 1, 3, 3, "T9")
# 12 by the rules (T3); smaller hands make quick games. More than 12 would be another game.
LIE_HAND_SIZE = NumberOption("hand_size", "hand size", 1, 12, 12, "T3")

NUMBER_OPTIONS: dict[str, tuple[NumberOption, ...]] = {
    "larry": (),
    "lie": (LIE_ROUNDS, LIE_HAND_SIZE),
}


def seats_problem(game: str, seats: int) -> str | None:
    """None, or why `game` cannot be played by `seats` players (L3, T2)."""
    rules = get_game(game)
    if rules.min_players <= seats <= rules.max_players:
        return None
    ruling = "L3" if game == "larry" else "T2"
    return (
        f"{rules.title} is played by {rules.min_players} to {rules.max_players} players"
        f" ({ruling}), not {seats}"
    )


def lie_options(
    *, seats: int, short_game: bool = False, rounds: int | None = None, hand_size: int | None = None
) -> LieOptions:
    """The Lie's options as chosen (None: the default; a short game is one round, T9).
    Raises ValueError naming the option that is out of range or does not fit the deck."""
    chosen = {
        LIE_ROUNDS: rounds if rounds is not None else 1 if short_game else LIE_ROUNDS.default,
        LIE_HAND_SIZE: hand_size if hand_size is not None else LIE_HAND_SIZE.default,
    }
    for option, value in chosen.items():
        problem = option.check(value)
        if problem is not None:
            raise ValueError(problem)
    options = LieOptions(rounds=chosen[LIE_ROUNDS], hand_size=chosen[LIE_HAND_SIZE])
    try:
        options.validate(seats)
    except ValueError as error:  # the deck's limit (T1, T8, T9): say which choice to change
        raise ValueError(
            f"hand size {options.hand_size} with {seats} players and {options.rounds} round(s): "
            f"{error}"
        ) from None
    return options
