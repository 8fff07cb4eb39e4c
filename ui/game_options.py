"""Each game's table options as a player chooses them, for the command line (`fairdeal host`,
`fairdeal play`) and the open-table dialog alike: the seats a game takes, and the engine options
its record (ui/screen_game.py) makes of the numbers chosen (ui/number_option.py).

The values end up in the game's engine options and from there in the lobby's signed terms
(protocol.md 5.3; each game's `lobby_options` under p2p/games/), so every seat agrees to them
before the first card is dealt. A game's numbers are listed in its record (ui/screen_game.py):
one game may have none, only a short game's yes/no.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairdeal.engine.games import get_game
from fairdeal.ui.screen_game import owner_of, screen_game


def seats_problem(game: str, seats: int) -> str | None:
    """None, or why `game` cannot be played by `seats` players (the game's ruling: L3, T2)."""
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
    record = screen_game(game)
    own = {option.name for option in record.number_options}
    foreign = [name for name, value in numbers.items() if value is not None and name not in own]
    if foreign:
        raise ValueError(foreign_options_text(foreign, record.title))
    return record.make_options(seats, short_game, {n: numbers.get(n) for n in own})


def foreign_options_text(names: Sequence[str], title: str) -> str:
    """What is said of number options given to a game that has none of that name."""
    labels = [owner_of(name).title for name in names]
    owners = " and ".join(dict.fromkeys(labels))
    words = " and ".join(
        o.label for name in names for o in owner_of(name).number_options if o.name == name
    )
    return f"{words} are options of {owners}, not of {title}"
