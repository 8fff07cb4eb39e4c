"""The Lie in the app: its table screen, widgets, narrator and help, and `SCREENS`, the record
the generic app finds it by (entry point `fairdeal.screens`, ui/screen_game.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fairdeal.ui.games.lie import options
from fairdeal.ui.screen_game import ScreenGame

if TYPE_CHECKING:
    from textual.screen import Screen

    from fairdeal.engine.lie.actions import Action
    from fairdeal.engine.lie.view import LieView
    from fairdeal.p2p.table.core.api import TableSession
    from fairdeal.ui.replay_session import ReplaySession
    from fairdeal.ui.report.part import ReportPart


def _table_screen(session: TableSession[LieView, Action], reveal_interval: float) -> Screen[None]:
    from fairdeal.ui.games.lie.screen import LieTableScreen

    return LieTableScreen(session)  # its cards are opened as the fair deck proves them


def _replay_screen(session: ReplaySession) -> Screen[None]:
    from fairdeal.ui.games.lie.replay import LieReplayScreen

    return LieReplayScreen(session)


def _help_text() -> str:
    from fairdeal.ui.games.lie.help import HELP_TEXT

    return HELP_TEXT


def _event_text(event: object, names: list[str], view: LieView) -> str | None:
    from fairdeal.ui.games.lie.narrator import lie_event_text
    from fairdeal.ui.games.lie.widgets.cards import letters_for

    colours = view.options.colour_names
    return lie_event_text(event, names, letters_for(colours), colours)


def _card_text(view: LieView, face: int) -> str:
    from fairdeal.ui.games.lie.widgets.cards import front_label, letters_for

    return front_label(face, letters_for(view.options.colour_names))


def _report_part() -> ReportPart:
    from fairdeal.ui.games.lie.report import LieReportPart

    return LieReportPart()


SCREENS: ScreenGame[LieView, Action] = ScreenGame(
    name="lie",
    title="The Lie",
    seats_ruling="T2",
    table_screen=_table_screen,
    replay_screen=_replay_screen,
    help_text=_help_text,
    event_text=_event_text,
    card_text=_card_text,
    number_options=options.NUMBERS,
    short_help="one round (T9)",
    short_changes={"rounds": 1},
    make_options=options.table_options,
    dialog_rows=options.dialog_rows,
    dialog_values=options.dialog_values,
    dialog_note=options.DIALOG_NOTE,
    fine_marks=True,
    simulate_numbers=(
        (
            options.HAND_SIZE,
            "how many cards per hand, 1-12 (default 12, T3; fewer make a quick game)",
        ),
    ),
    selfplay_short_refusal="--short is a Larry option; The Lie always plays its rounds (T9)",
    app_only="The Lie's Phase 1 is a race in real time",
    claim_pace_help="seconds between a bot's claims in Phase 1",
    styles=(Path(__file__).with_name("options.tcss"),),
    report_part=_report_part,
)
