"""The Lie's table options as a player chooses them: rounds (T9) and hand size (T3), for the
command line's `--rounds/--hand-size` and the open-table dialog's fields (ui/number_option.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from fairdeal.engine.lie import LieOptions
from fairdeal.ui.number_option import NumberOption, checked
from fairdeal.ui.screen_game import DialogFields, TableChoice

ROUNDS = NumberOption("rounds", "rounds", 1, 3, 3, "T9", short_default=1)
# 12 by the rules (T3); smaller hands make quick games. More than 12 would be another game.
HAND_SIZE = NumberOption("hand_size", "hand size", 1, 12, 12, "T3")
NUMBERS = (ROUNDS, HAND_SIZE)

DIALOG_NOTE = (
    f"The Lie: 2-6 (T2), {ROUNDS.low}-{ROUNDS.high} rounds (T9),"
    f" hands of {HAND_SIZE.low}-{HAND_SIZE.high} cards (T3)."
)
if TYPE_CHECKING:
    from textual.widget import Widget


def table_options(
    seats: int, short_game: bool = False, numbers: Mapping[str, int | None] | None = None
) -> LieOptions:
    """The Lie's options as chosen (None: the default; a short game is one round, T9).
    Raises ValueError naming the option that is out of range or does not fit the deck."""
    numbers = numbers or {}
    rounds, hand_size = numbers.get(ROUNDS.name), numbers.get(HAND_SIZE.name)
    options = LieOptions(
        rounds=checked(ROUNDS, rounds if rounds is not None else _default_rounds(short_game)),
        hand_size=checked(HAND_SIZE, hand_size if hand_size is not None else HAND_SIZE.default),
    )
    try:
        options.validate(seats)
    except ValueError as error:  # the deck's limit (T1, T8, T9): say which choice to change
        raise ValueError(
            f"hand size {options.hand_size} with {seats} players and {options.rounds} round(s): "
            f"{error}"
        ) from None
    return options


def _default_rounds(short_game: bool) -> int:
    return ROUNDS.short_default if short_game and ROUNDS.short_default else ROUNDS.default


def dialog_rows(base: TableChoice) -> Iterable[Widget]:
    """The open-table dialog's row of The Lie's numbers, filled from the last table `base`."""
    from textual.containers import Horizontal
    from textual.widgets import Label

    from fairdeal.ui.widgets.keyed_input import KeyedInput

    chosen = base.numbers
    rounds = chosen.get(ROUNDS.name, _default_rounds(base.short_game))
    return [
        Horizontal(
            Label("Rounds", classes="field"),
            KeyedInput(
                str(rounds),
                type="integer",
                max_length=3,
                compact=True,
                id="rounds",
                tooltip=f"{ROUNDS.low}-{ROUNDS.high} rounds (T9)",
            ),
            Label(" Hand size", classes="field wide-field"),
            KeyedInput(
                str(chosen.get(HAND_SIZE.name, HAND_SIZE.default)),
                type="integer",
                max_length=3,
                compact=True,
                id="hand-size",
                tooltip=f"{HAND_SIZE.low}-{HAND_SIZE.high} cards (T3)",
            ),
            classes="row",
            id="lie-options",
        )
    ]


def dialog_values(dialog: DialogFields) -> TableChoice:
    """The TableSpec fields the dialog's row says; ValueError naming a field that is no number."""
    return TableChoice(
        numbers={
            ROUNDS.name: dialog.number("rounds", ROUNDS.label),
            HAND_SIZE.name: dialog.number("hand-size", HAND_SIZE.label),
        }
    )
