"""Larry's table screen, its core: what it knows of the table, its layout, the events it follows
and the views (a doubt, scores, a fault) it queues; ui/games/larry/screen.py draws it and holds
its keys."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeAlias

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.geometry import Size
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer

from fairdeal.engine.larry import Action, LarryView
from fairdeal.engine.larry import events as ev
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.core.api import (
    Notice,
    ReplayDone,
    ReplayStarted,
    SeatInfo,
    SeatStatus,
    SetupProgress,
    StateChanged,
    TableEnded,
    TableEvent,
    TableSession,
)
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.narrator import (
    event_text,
    gift_text,
)
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.games.larry.widgets.hand import HandView
from fairdeal.ui.games.larry.widgets.pile_view import PileView
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.games.larry.widgets.table_status import TableStatus
from fairdeal.ui.screens.table import TableScreenBase
from fairdeal.ui.widgets.game_log import GameLog
from fairdeal.ui.widgets.setup_progress import setup_finished, setup_text
from fairdeal.ui.widgets.text_line import TextLine

# The table as Larry's screens see it: its views and actions are Larry's.
LarrySession: TypeAlias = "TableSession[LarryView, Action]"

log = logging.getLogger("fairdeal.ui")


class LarryTableCore(TableScreenBase[LarryView]):
    """The state, the widgets and the events of Larry's table screen."""

    UNIT = "hand"

    session: LarrySession
    # What the panels show, bound to them (`compose`): the view (the table as it was before a
    # doubt's result while that is held) and the seats (a joined table learns them late)
    drawn_view: var[LarryView | None] = var(None)
    drawn_seats: var[tuple[SeatInfo, ...]] = var(tuple)

    def __init__(self, session: LarrySession, *, reveal_interval: float = 0.4) -> None:
        self.reveal_interval = reveal_interval
        self._top_fitted: tuple[object, ...] | None = None  # what the top panels were fitted to
        super().__init__(session)

    def init_table_state(self) -> None:
        """What the screen knows of the table, as before its first event (a replay stepping
        back starts it again on the same screen, ui/screens/replay.py)."""
        super().init_table_state()
        self.selected = 0
        self.larry_armed = False
        self.hand_scores: list[tuple[int, ...]] = []
        self.winners: tuple[int, ...] | None = None
        self._actions_made = 0  # our actions the table took (views about the past go stale)
        self._replaying = False  # a resumed table replays its transcript: no views for it
        self._busy = False  # a dialog of ours (announce, pick) is open
        self._pile_totals_shown: tuple[int, ...] = ()
        self.last_setup: SetupProgress | None = None  # kept after `setup` clears
        self._gifts: list[ev.CardGiven] = []  # gifts to or from us, to log once their face is known
        # a doubt's result waits in here until the doubt view has turned its cards over
        self._held_lines: list[str] | None = None
        self._held_since = 0  # events_seen when the holding began
        self.drawn_view = None
        # and the table as it was before it (card counts, "a new round") stays drawn as long
        self.frozen_view: LarryView | None = None  # held while a doubt's result is held
        self._state_seen: Any = None  # the state of the last StateChanged handled
        self._doubt_views = 0  # doubt views queued or open that turn their cards slowly

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        view, seats = LarryTableCore.drawn_view, LarryTableCore.drawn_seats
        with Horizontal(id="top"):
            yield SeatList(id="seats").data_bind(view=view, seats=seats)
            yield TableStatus(id="status").data_bind(LarryTableCore.setup, view=view, seats=seats)
        yield PileView(id="pile").data_bind(view=view, seats=seats)
        yield HandView(id="hand")
        yield TextLine(id="hint").data_bind(text=LarryTableCore.hint)
        yield GameLog(id="log")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._fit_top()
        self.follow_table()

    def on_resize(self) -> None:
        self._fit_top()

    def _fit_top(self) -> None:
        """Make the seats and table panels as tall as the taller one's content at the width they
        get (a 2-seat table still shows every status line; 8 seats show every seat)."""
        top = self.query_one("#top")
        width = top.size.width or self.size.width or self.app.size.width
        # Measuring renders both panels (a fifth of a replay's step): only when what decides
        # their heights changed. A seat's row never wraps; the status lines may, when too long.
        rows = str(self.query_one(TableStatus).content).split("\n")
        inner = width // 2 - self.query_one(TableStatus).styles.gutter.width
        status = len(rows) if all(cell_len(row) <= inner for row in rows) else tuple(rows)
        fitted = (width, self.size, len(self.session.seats), bool(self.watchers), status)
        if fitted == self._top_fitted:
            return
        self._top_fitted = fitted
        lines = 1
        for panel in (self.query_one(SeatList), self.query_one(TableStatus)):
            inner = max(1, width // 2 - panel.styles.gutter.width)
            lines = max(lines, panel.get_content_height(Size(inner, 1000), self.size, inner))
        top.styles.height = lines + 2  # the panels' top and bottom borders

    # -- events ----------------------------------------------------------------------------------
    async def handle(self, event: TableEvent) -> None:
        if (
            self._held_lines is not None
            and not self._doubt_views
            and not isinstance(event, DoubtVerification)
            and self.events_seen > self._held_since
        ):
            self._release_log()  # the doubt's verification never came: its result is news now
        await super().handle(event)

    async def follow_game_event(self, event: TableEvent) -> None:
        if isinstance(event, DoubtVerification):
            self._queue_doubt(event)

    async def follow_notice(self, event: Notice) -> None:
        if isinstance(event, ReplayStarted | ReplayDone):
            self._replaying = isinstance(event, ReplayStarted)
        await super().follow_notice(event)

    def log_line(self, line: str) -> None:
        if self._held_lines is not None:
            self._held_lines.append(line)
        else:
            self.query_one(GameLog).say(line)

    def _hold_log(self, before: Any) -> None:
        """A doubt's result is not told in the log before its view has turned the cards over
        (cards turned one by one, in the app; a resumed table's replay shows no views), nor by
        the panels: they show the table at `before`, the state before the doubt's result."""
        if self.reveal_interval > 0 and not self._replaying and self._held_lines is None:
            self._held_lines = []
            self._held_since = self.events_seen
            if before is not None:  # the card counts, "a new round": who picked up
                self.frozen_view = replace(self.session.view(), state=before)

    def _doubt_shown(self) -> None:
        """A doubt view has turned all its cards (or closed, or was skipped as stale)."""
        self._doubt_views = max(0, self._doubt_views - 1)
        if not self._doubt_views:
            self._release_log()

    def _release_log(self) -> None:
        held, self._held_lines = self._held_lines or [], None
        for line in held:
            self.query_one(GameLog).say(line)
        if self.frozen_view is not None:  # the doubt is told: the table as it is now
            self.frozen_view = None
            self.call_later(self.refresh_table)

    async def follow_state(self, event: StateChanged[Any, ev.Event]) -> None:
        self._have_state = True
        self.message = ""  # an old complaint does not outlive the state it was about
        # every setup step (shuffle, deal, a doubt's reveal) ends in a new state: its progress
        # is old news (the driver announces a step's start, not its end)
        self.setup = None
        deck = self.session.view().deck
        game_over = any(isinstance(e, ev.GameOver) for e in event.events)
        before, self._state_seen = self._state_seen, event.state
        for engine_event in event.events:
            if isinstance(engine_event, ev.DoubtResolved):
                self._hold_log(before)
            if isinstance(engine_event, ev.CardGiven) and self._gift_involves_us(engine_event):
                self._gifts.append(engine_event)  # logged below, once we know its face
            else:
                line = event_text(engine_event, self.names, deck)
                if line:
                    self.log_line(line)
            self._on_engine_event(engine_event, game_over)
        self._log_gifts()
        self._pile_totals_shown = event.state.pile_totals
        self.close_stale_modal()  # a view about other seats never covers our turn
        self.show_next_modal()  # and one that waited behind it may have gone stale too
        await self.refresh_table()

    def _gift_involves_us(self, gift: ev.CardGiven) -> bool:
        return self.session.seat in (gift.seat, gift.target)

    def _log_gifts(self) -> None:
        """A gift to or from us names the giver and the card (L11), as soon as we know the card:
        at a networked table a received card's face arrives with its share, a step later."""
        view = self.session.view()
        waiting: list[ev.CardGiven] = []
        for gift in self._gifts:
            face = view.knowledge.get(gift.slot)
            if face is None and gift.slot in view.state.all_slots():
                waiting.append(gift)
                continue
            card = view.deck[face] if face is not None else None
            self.log_line(gift_text(gift, self.names, card))
        self._gifts = waiting

    def watch_setup(self, setup: SetupProgress | None) -> None:
        if setup is not None:
            self.last_setup = setup  # how many proofs were checked, after the panel clears it

    def setup_done_line(self, event: SetupProgress) -> str | None:
        if setup_finished(event) and event.phase in ("deal", "reshuffle"):
            return f"Setup: {setup_text(event, self.session.seats)}."
        return None

    def show_seat_status(self, event: SeatStatus) -> None:
        self.query_one(SeatList).set_waiting(event.seat, event.waiting_seconds)

    async def redraw(self) -> None:
        await self.refresh_table()

    def result_so_far(self, event: TableEnded) -> str:
        """Every seat's points so far, and who leads."""
        names = self.names
        totals = ", ".join(f"{names[s]} {score:+d}" for s, score in enumerate(event.scores))
        leading = ", ".join(names[s] for s in event.leaders) or "nobody (no hand was scored)"
        return f"{totals}; leading: {leading}"

    def queue_end_scores(self, event: TableEnded, title: str) -> None:
        scores, winners = list(self.hand_scores), event.leaders or None
        self.queue_modal(lambda: ScoresScreen(self.session.seats, scores, winners, title))

    def _on_engine_event(self, event: ev.Event, game_over: bool) -> None:
        if isinstance(event, ev.HandScored):
            self.hand_scores.append(event.hand_scores)
            if not game_over:  # the final hand's scores show in the game-over table
                self._queue_scores(None)
        elif isinstance(event, ev.GameOver):
            self.winners = event.winners
            self._queue_scores(event.winners)

    def _queue_scores(self, winners: tuple[int, ...] | None, *, asked: bool = False) -> None:
        if self._replaying and not asked:
            return  # resuming: the scores so far are in the log (and s shows them)
        scores = list(self.hand_scores)
        if winners is not None:
            title = "Game over"
        elif scores:
            title = f"Scores after hand {len(scores)}"
        else:
            title = "Scores: no hand has ended yet (L18)"
        self.queue_modal(
            lambda: ScoresScreen(self.session.seats, scores, winners, title),
            # a hand's scores not seen before our next move are old news in the next hand
            stale=None if asked or winners is not None else self._stale_when_we_play(),
        )

    def _stale_when_we_play(self, *, also_on_our_turn: bool = False) -> Callable[[], bool]:
        """A test for a view about the past: stale once we have acted since it was queued (or,
        `also_on_our_turn`, as soon as it is our turn: it must not cover "YOUR TURN")."""
        acted = self._actions_made

        def stale() -> bool:
            if self._actions_made > acted:
                return True
            view = self.current_view() if also_on_our_turn else None
            return view is not None and view.my_turn

        return stale

    def modals_held(self) -> bool:
        return self._busy or super().modals_held()  # a dialog of ours is open

    def view_closed(self, screen: Screen[None] | None) -> None:
        cut_short = (
            isinstance(screen, DoubtScreen)
            and screen.on_all_shown is not None
            and screen.shown < len(screen.verification.cards)
        )
        if cut_short:
            self._doubt_shown()  # closed before its last card: the log tells the rest
        super().view_closed(screen)

    # -- the parts built on this one (screen.py) -------------------------------------------------
    def _queue_doubt(self, event: DoubtVerification) -> None:
        """Show a doubt's cards turning over, in turn with the other views."""
        raise NotImplementedError

    async def refresh_table(self) -> None:
        """Draw the table from the session's view."""
        raise NotImplementedError
