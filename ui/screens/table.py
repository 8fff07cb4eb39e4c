"""What every game's table screen does alike, written once: it follows the table (presence, setup
progress, a fault, the table ended, notices) into the log, the hint line and the views it opens
one at a time (ui/screens/modal_queue.py).

A game's table screen (ui/games/<game>/screen.py) subclasses `TableScreenBase` and provides the
hooks marked abstract here, which the type checker proves it has: how it follows a new state,
how it draws the table, its hint line, the result of a table ended early and the
scores view that shows it. Everything else about the table is here (following it: `follow_table`
starts it and hands each event to `handle`) and in the presence part it builds on
(ui/screens/presence.py), whose contract with the screen is the `PresenceHost` protocol.
"""

from __future__ import annotations

import logging
from abc import abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from textual import work
from textual.css.query import NoMatches
from textual.reactive import var
from textual.screen import Screen

from fairdeal.p2p.table.core.api import (
    FaultDetected,
    Notice,
    SetupProgress,
    StateChanged,
    TableEnded,
    TableEvent,
    TableSession,
)
from fairdeal.ui.background import reported
from fairdeal.ui.screens.fault import FaultScreen
from fairdeal.ui.screens.modal_queue import ModalQueue, QueuedView
from fairdeal.ui.screens.presence import TablePresence
from fairdeal.ui.screens.too_small import SizeGuard
from fairdeal.ui.widgets.game_log import GameLog
from fairdeal.ui.widgets.setup_progress import setup_text
from fairdeal.ui.wording import counted, seat_names

ViewT = TypeVar("ViewT")

log = logging.getLogger("fairdeal.ui")


class TableScreenBase(Screen[None], TablePresence, SizeGuard, Generic[ViewT]):
    """A seat's table on screen: `ViewT` is the game's view of it."""

    UNIT: ClassVar[str] = "hand"  # what the game is played in, as a table ended counts it
    # A game's own setup phases, in words: each as (doing, done) (ui/widgets/setup_progress.py)
    SETUP_WORDS: ClassVar[Mapping[str, tuple[str, str]]] = {}
    FAULT_MARK: ClassVar[str] = ""  # what the log's fault line starts with, before "FAULT by"

    session: TableSession[ViewT, Any]
    # What the hint line under the table says (a `TextLine` bound to it follows)
    hint: var[str] = var("")
    # The setup step under way, as the game shows it (`setup_shown`); None: none is
    setup: var[SetupProgress | None] = var(None)

    def __init__(self, session: TableSession[ViewT, Any]) -> None:
        super().__init__()
        self.session = session
        self.init_table_state()

    def init_table_state(self) -> None:
        """What the screen knows of the table, as before its first event (a replay stepping
        back starts it again on the same screen, ui/screens/replay.py); a game's screen adds
        its own."""
        self.events_seen = 0  # table events handled so far (tests wait for the session's count)
        self.message = ""  # what the hint line says instead, until the next change
        self._have_state = False  # a networked table has no view until keys and deal are done
        self.setup = None
        self._gathering = "waiting for the seats"  # a networked table's news before its state
        self.fault: FaultDetected | None = None  # a seat broke the rules: the game stopped
        self.modals = ModalQueue()  # views over the table (scores, a doubt, a fault, help)
        self.init_presence()

    # -- what a game's screen provides -----------------------------------------------------------
    @abstractmethod
    async def follow_state(self, event: StateChanged[Any, Any]) -> None:
        """The engine applied a step: log its events, queue its views, draw."""

    @abstractmethod
    async def redraw(self) -> None:
        """Draw the table from the session's view."""

    @abstractmethod
    def table_hint(self, view: ViewT) -> str:
        """The hint line under the table, for `view`, for the seat's player."""

    @abstractmethod
    def result_so_far(self, event: TableEnded) -> str:
        """A table ended early, its result in words (the scores, who leads)."""

    @abstractmethod
    def queue_end_scores(self, event: TableEnded, title: str) -> None:
        """Queue the scores view of a table ended early."""

    async def follow_game_event(self, event: TableEvent) -> None:
        """An event only this game's table sends (a doubt's cards, fronts proved)."""

    # -- the view --------------------------------------------------------------------------------
    def current_view(self) -> ViewT | None:
        """This seat's view, or None before the table has a state (setup still running)."""
        return self.session.view() if self._have_state else None

    def hint_text(self, view: ViewT) -> str:
        """The hint line under the table (a watcher's screen says less: ui/screens/replay.py)."""
        return self.table_hint(view)

    def gathering_text(self) -> str:
        """The hint before the table has a state: the setup step under way, or the latest news."""
        doing = (
            setup_text(self.setup, self.session.seats, self.SETUP_WORDS)
            if self.setup
            else self._gathering
        )
        return self.message or f"Setting up the table: {doing}…"

    # -- events ----------------------------------------------------------------------------------
    @work(exclusive=True, group="table-events")
    @reported("Following the table")
    async def follow_table(self) -> None:
        """Start the table and handle its events until it closes."""
        await self.session.start()
        async for event in self.session.events():
            try:
                await self.handle(event)
            except NoMatches:
                if self.is_attached and self.is_running:
                    raise
                return  # the screen is closing and took its widgets while an event was handled
            except Exception as error:  # one event that cannot be shown must not stop the table
                log.exception("showing %s failed", type(event).__name__)
                self.log_line(f"✗ Could not show a {type(event).__name__} event: {error}")
            self.events_seen += 1
            self.offer_fairness_page()
        if not self._have_state:  # a networked table can end before it begins (no answer)
            why = self._gathering if self._gathering.startswith("✗") else ""
            await self.say(f"{why or '✗ The table closed before the game began'}. Esc: lobby")

    async def handle(self, event: TableEvent) -> None:
        if await self.follow_presence(event):
            return
        if isinstance(event, StateChanged):
            await self.follow_state(event)
        elif isinstance(event, SetupProgress):
            await self.follow_setup(event)
        elif isinstance(event, FaultDetected):
            await self.follow_fault(event)
        elif isinstance(event, TableEnded):
            await self.follow_table_ended(event)
        elif isinstance(event, Notice):
            await self.follow_notice(event)
        else:
            await self.follow_game_event(event)

    async def follow_setup(self, event: SetupProgress) -> None:
        """A seat keyed, shuffled, dealt: `setup` says how far the table is (the hint before the
        table has a state; after it, the game's own line or panel); a finished step may make a
        line in the log. What differs between games is in the three hooks below."""
        if self.setup_is_play(event):
            return
        self.setup = self.setup_shown(event)
        line = self.setup_done_line(event)
        if line is not None:
            self.log_line(line)
        await self.redraw()

    def setup_is_play(self, event: SetupProgress) -> bool:
        """Whether `event` is part of playing rather than setting up (nothing to show)."""
        return False

    def setup_shown(self, event: SetupProgress) -> SetupProgress | None:
        """What `setup` becomes on `event`: the step itself, by default, even once done."""
        return event

    def setup_done_line(self, event: SetupProgress) -> str | None:
        """The log's line about a step `event` finishes, if the game logs one."""
        return None

    async def follow_fault(self, event: FaultDetected) -> None:
        """A seat broke the rules: the game stopped; the log and the fault view say why."""
        name = self.names[event.seat]
        self.fault = event
        self.log_line(f"{self.FAULT_MARK}FAULT by {name}: {event.what}. Evidence: {event.evidence}")
        self.queue_modal(lambda: FaultScreen(event, name))
        await self.redraw()

    async def follow_table_ended(self, event: TableEnded) -> None:
        """We stopped playing here (we left, or ended the table after a seat left): the result
        so far, the hands or rounds already scored."""
        self.ended = event
        played = counted(event.hands, self.UNIT)
        self.log_line(
            f"The table has ended ({event.reason}). After {played}: {self.result_so_far(event)}."
        )
        self.queue_end_scores(event, f"Table ended after {played}")
        await self.redraw()

    async def follow_notice(self, event: Notice) -> None:
        self.log_line(self.notice_text(event))
        if not self._have_state:  # gathering: the latest news is the hint
            self._gathering = event.text.rstrip(".…")
            await self.redraw()

    def notice_text(self, event: Notice) -> str:
        return seat_names(event.text, self.names)  # "seat 2" is a name to players

    def log_line(self, line: str) -> None:
        self.query_one(GameLog).say(line)

    async def say(self, message: str) -> None:
        self.message = message
        await self.redraw()

    # -- the views over the table, one at a time -------------------------------------------------
    def queue_modal(
        self,
        make: Callable[[], Screen[None]],
        stale: Callable[[], bool] | None = None,
        on_skip: Callable[[], None] | None = None,
    ) -> None:
        """Open the view `make` builds once those before it have closed (`stale`, `on_skip`:
        ui/screens/modal_queue.py)."""
        self.modals.add(QueuedView(make, stale, on_skip))
        self.show_next_modal()

    def modals_held(self) -> bool:
        """Whether a view must wait now: the terminal is too small (the screen resumes once it
        fits, and the view opens then)."""
        return self.too_small_now()

    def show_next_modal(self) -> None:
        if self.modals_held():
            return
        screen = self.modals.take()
        if screen is not None:
            self.app.push_screen(screen, callback=self._modal_closed)

    def on_screen_resume(self) -> None:  # the size notice went: a view may have waited
        self.show_next_modal()

    def close_stale_modal(self) -> None:
        """The open view about the past closes once it is stale (our turn came, we acted)."""
        screen = self.modals.stale_open_view()
        if screen is not None and self.app.screen is screen:
            screen.dismiss(None)

    def _modal_closed(self, _result: object = None) -> None:
        self.view_closed(self.modals.closed())

    def view_closed(self, screen: Screen[None] | None) -> None:
        """A view over the table went: the next may open."""
        self.show_next_modal()
