"""Each game's table options as a player chooses them: one description for the command line
(`fairdeal host`, `fairdeal play`) and the open-table dialog, so that both offer the same
choices, in the same ranges, and refuse absurd values with the same words.

The values end up in the game's engine options and from there in the lobby's signed terms
(protocol.md 5.3; each game's `lobby_options` under p2p/games/), so every seat agrees to them
before the first card is dealt. A game's numbers are listed in its record (ui/screen_game.py):
one game may have none, only a short game's yes/no.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fairdeal.engine.games import get_game


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


def seats_problem(game: str, seats: int) -> str | None:
    """None, or why `game` cannot be played by `seats` players (the game's ruling: L3, T2)."""
    from fairdeal.ui.screen_game import screen_game

    rules = get_game(game)
    if rules.min_players <= seats <= rules.max_players:
        return None
    return (
        f"{rules.title} is played by {rules.min_players} to {rules.max_players} players"
        f" ({screen_game(game).seats_ruling}), not {seats}"
    )


def game_options(
    game: str, *, seats: int, short_game: bool = False, numbers: Mapping[str, int | None]
) -> object:
    """The engine options of `game` as chosen (None: a number's default). Raises ValueError for
    a number given that `game` has not (naming its game) or that makes no game (naming it)."""
    from fairdeal.ui.screen_game import screen_game

    record = screen_game(game)
    own = {option.name for option in record.number_options}
    foreign = [name for name, value in numbers.items() if value is not None and name not in own]
    if foreign:
        raise ValueError(foreign_options_text(foreign, record.title))
    return record.make_options(seats, short_game, {n: numbers.get(n) for n in own})


def foreign_options_text(names: Sequence[str], title: str) -> str:
    """What is said of number options given to a game that has none of that name."""
    from fairdeal.ui.screen_game import owner_of

    labels = [owner_of(name).title for name in names]
    owners = " and ".join(dict.fromkeys(labels))
    words = " and ".join(
        o.label for name in names for o in owner_of(name).number_options if o.name == name
    )
    return f"{words} are options of {owners}, not of {title}"


def checked(option: NumberOption, value: int) -> int:
    """`value`, or ValueError naming the option when it is out of range."""
    problem = option.check(value)
    if problem is not None:
        raise ValueError(problem)
    return value
