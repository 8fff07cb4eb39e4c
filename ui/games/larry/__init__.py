"""Larry in the app: its table screen, widgets, narrator, help and plain-text game, and `SCREENS`,
the record the generic app finds it by (entry point `fairdeal.screens`, ui/screen_game.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fairdeal.ui.games.larry import options
from fairdeal.ui.screen_game import ScreenGame

if TYPE_CHECKING:
    import argparse

    from textual.screen import Screen

    from fairdeal.engine.larry import LarryView
    from fairdeal.engine.larry.actions import Action
    from fairdeal.p2p.table.core.api import TableSession
    from fairdeal.ui.replay_session import ReplaySession
    from fairdeal.ui.report.part import ReportPart


def _table_screen(session: TableSession[LarryView, Action], reveal_interval: float) -> Screen[None]:
    from fairdeal.ui.games.larry.screen import TableScreen

    return TableScreen(session, reveal_interval=reveal_interval)


def _replay_screen(session: ReplaySession) -> Screen[None]:
    from fairdeal.ui.games.larry.replay import LarryReplayScreen

    return LarryReplayScreen(session)


def _help_text() -> str:
    from fairdeal.ui.games.larry.help import HELP_TEXT

    return HELP_TEXT


def _event_text(event: object, names: list[str], view: LarryView) -> str | None:
    from fairdeal.engine.larry.events import CardGiven
    from fairdeal.ui.games.larry.narrator import event_text, gift_text

    if isinstance(event, CardGiven) and view.seat in (event.seat, event.target):
        face = view.knowledge.get(event.slot)  # the giver and the taker know the card (L11)
        return gift_text(event, names, view.deck[face] if face is not None else None)
    return event_text(event, names, view.deck)


def _card_text(view: LarryView, face: int) -> str:
    from fairdeal.ui.games.larry.narrator import card_name

    return card_name(view.deck[face])


def _report_part() -> ReportPart:
    from fairdeal.ui.games.larry.report import LarryReportPart

    return LarryReportPart()


def _plain(args: argparse.Namespace) -> int:
    from fairdeal.ui.games.larry.plain import run_plain

    return run_plain(args)


SCREENS: ScreenGame[LarryView, Action] = ScreenGame(
    name="larry",
    title="Larry",
    seats_ruling="L3",
    table_screen=_table_screen,
    replay_screen=_replay_screen,
    help_text=_help_text,
    event_text=_event_text,
    card_text=_card_text,
    short_help="one hand (L18)",
    short_changes={"short_game": True},
    make_options=options.table_options,
    dialog_rows=options.dialog_rows,
    dialog_values=options.dialog_values,
    dialog_note="Larry: 2-8 seats (L3).",
    plain=_plain,
    report_part=_report_part,
    styles=(Path(__file__).with_name("table.tcss"),),
)
