"""What both games' table screens do about the other seats being there: connected, holding up
the game, withholding a coin reveal, gone for good; and leaving a table yourself.

A mixin for a table `Screen` (Larry's `TableScreen`, The Lie's `LieTableScreen`): it follows
`SeatStatus` and `SeatLeft` (protocol.md 10.6, 10.12), logs and notifies the changes, asks before
a player leaves a networked game in progress and lets the remaining players end a table that
cannot go on (`e`). The screen provides what `PresenceHost` lists (ui/screens/table.py does);
it may override `show_seat_status(event)` to draw the connection marks. The keys every table screen
answers alike (leave, new game) and closing the table with the screen are here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from fairdeal.p2p.table.core.api import (
    MovesHeld,
    SeatConnection,
    SeatLeft,
    SeatReturned,
    SeatStatus,
    TableEnded,
    TableEvent,
    TableSession,
    WatchersChanged,
)
from fairdeal.ui.background import reported
from fairdeal.ui.messages import NewGameRequested
from fairdeal.ui.screens.confirm import ConfirmDialog


def table_bindings(*, show_new_game: bool) -> list[BindingType]:
    """The keys every table screen binds alike, after its own: the scores, help, back to the
    lobby, ending the table, a new game (the actions: here and in the screen)."""
    return [
        Binding("s", "scores", "Scores"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("escape", "leave", "Lobby", show=False),
        Binding("e", "end_table", "End table", show=False),
        Binding("n", "new_game", "New game", show=show_new_game),
        Binding("f", "fairness_page", "Fairness page", show=False),
    ]


# A modal view of the table (the score tables) stops the app's bindings: it binds q itself, to the
# app's quit, which still asks first at a networked game in progress (ui/app.py).
QUIT_FROM_MODAL = Binding("q", "app.quit", "Quit")


class PresenceHost(Protocol):
    """What a table screen gives its presence part (ui/screens/table.py provides it)."""

    session: TableSession[Any, Any]
    app: Any

    def log_line(self, line: str) -> None: ...

    def current_view(self) -> Any: ...  # the game's view; None before the table has a state

    async def say(self, message: str) -> None: ...

    async def redraw(self) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def notify(self, message: str, *, title: str = "", severity: Any = "information") -> None: ...


# TablePresence is mixed into `TableScreenBase`, which provides the host's part: it is checked as
# a PresenceHost, and at run time it is a plain mixin (no Protocol among a Screen's bases).
if TYPE_CHECKING:
    HostBase = PresenceHost
else:
    HostBase = object


class TablePresence(HostBase):
    """Mixed into a table Screen; call `init_presence()` from its `__init__`."""

    def init_presence(self) -> None:
        self._offered_page = False  # `f` (the fairness page) was offered at the end
        self._holding_up: set[int] = set()  # seats the table is waiting on (SeatStatus)
        self._owes: dict[int, tuple[str, ...]] = {}  # what each of them owes, in words
        self._withholding: set[int] = set()  # of those, seats withholding a coin reveal (13.6)
        self._offline: set[int] = set()
        self._heard: set[int] = set()  # seats whose connection this screen has been told
        self.moves_held: tuple[int, ...] = ()  # a seat taken back waits for these (MovesHeld)
        self.left: dict[int, str] = {}  # seats that left the table for good (SeatLeft)
        self.ended: TableEnded | None = None  # this seat stopped playing here (TableEnded)
        self._asking_to_leave = False
        self.watchers: tuple[tuple[str, str], ...] = ()  # watching the table (4.8)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.session.seats]

    def plays_its_seat(self) -> bool:
        """Whether the player of this screen plays its seat: a watcher's screen does not, and
        says the seat's name where a player's says "your" (ui/screens/replay.py)."""
        return True

    def show_seat_status(self, event: SeatStatus) -> None:
        """Draw the seat's connection marks (the seats panel of the game); nothing by default."""

    # -- events ----------------------------------------------------------------------------------
    async def follow_presence(self, event: TableEvent) -> bool:
        """Follow `event` if it tells who is at the table (seats, watchers): True if it did."""
        if isinstance(event, SeatStatus):
            await self.follow_seat_status(event)
        elif isinstance(event, SeatLeft):
            await self.follow_seat_left(event)
        elif isinstance(event, SeatReturned):
            await self.follow_seat_returned(event)
        elif isinstance(event, SeatConnection):
            self.follow_connection(event.seat, event.connected, first=event.seat not in self._heard)
            await self.redraw()
        elif isinstance(event, MovesHeld):
            await self.follow_moves_held(event)
        elif isinstance(event, WatchersChanged):
            await self.follow_watchers(event)
        else:
            return False
        return True

    async def follow_seat_status(self, event: SeatStatus) -> None:
        """The seats panel shows every update; the log and a notification only the changes."""
        self.show_seat_status(event)
        name = self.names[event.seat]
        if event.waiting_seconds is not None:
            self._owes[event.seat] = event.owes
        if event.waiting_seconds is not None and event.seat not in self._holding_up:
            self._holding_up.add(event.seat)
            text = f"{name} is holding up the game ({event.waiting_seconds:.0f} s)."
            if event.owes:  # protocol.md 10.6: what the table waits for from it
                text = (
                    f"Waiting for {name}: {', '.join(event.owes)} ({event.waiting_seconds:.0f} s)."
                )
            if event.withholding is not None:  # it may be doing so on purpose (protocol.md)
                self._withholding.add(event.seat)
                text = (
                    f"{name} {event.withholding} ({event.waiting_seconds:.0f} s): "
                    "the table may be ended with that evidence."
                )
            self.notify(text, title="Waiting", severity="warning")
            self.log_line(text)
        elif event.waiting_seconds is None and event.seat in self._holding_up:
            self._holding_up.discard(event.seat)
            self._withholding.discard(event.seat)
            self._owes.pop(event.seat, None)
            self.log_line(f"{name} is playing again.")
        self.follow_connection(event.seat, event.connected)
        await self.redraw()

    def follow_connection(self, seat: int, connected: bool, first: bool = False) -> None:
        """A seat's channel is up or down (at once: SeatConnection; or past the silence limit:
        SeatStatus); the log says each change. `first`: the first word of it at this seat (a
        seat taken back after a crash may find another still down: offline, not "lost")."""
        name = self.names[seat]
        self._heard.add(seat)
        if not connected and seat not in self._offline:
            self._offline.add(seat)
            self.log_line(f"{name} is offline." if first else f"{name} lost the connection.")
        elif connected and seat in self._offline:
            self._offline.discard(seat)
            self.log_line(f"{name} is connected again.")

    @property
    def offline(self) -> frozenset[int]:
        """The seats with no channel to this one now."""
        return frozenset(self._offline)

    async def follow_moves_held(self, event: MovesHeld) -> None:
        """A seat taken back after a crash: its moves wait for the others (protocol.md 4.6)."""
        before, self.moves_held = self.moves_held, event.seats
        if before and not event.seats:
            self.log_line("Caught up with the table: your moves go out again.")
        elif event.seats and not before:
            self.log_line(f"{self.moves_waiting_text()}.")
        await self.redraw()

    def moves_waiting_text(self) -> str:
        """ "Your moves wait for Alice (offline): …" while a seat taken back catches up."""
        who = ", ".join(
            f"{self.names[s]} (offline)" if s in self._offline else self.names[s]
            for s in self.moves_held
        )
        return (
            f"Your moves wait for {who}: your seat, taken back after a crash, sends nothing "
            "until they have sent back what they hold of it"
        )

    async def follow_seat_left(self, event: SeatLeft) -> None:
        self.left[event.seat] = event.reason
        text = left_notice(self.names[event.seat], event.reason)
        self.log_line(f"{text} Press e to end the table with the result so far.")
        self.notify(text, title="A player left", severity="warning")
        await self.redraw()

    async def follow_seat_returned(self, event: SeatReturned) -> None:
        """A seat that had left took its seat back (`fairdeal resume`): it is no longer gone."""
        if self.left.pop(event.seat, None) is None:
            return
        name = self.names[event.seat]
        self.log_line(f"{name} is back at the table.")
        self.notify(f"{name} is back at the table.", title="A player came back")
        await self.redraw()

    async def follow_watchers(self, event: WatchersChanged) -> None:
        """The seats panel lists who watches now (one that left is gone from it); the log says
        who came and who went."""
        came = [w for w in event.watchers if w not in self.watchers]
        went = [w for w in self.watchers if w not in event.watchers]
        self.watchers = event.watchers
        for verb, who in (("is watching", came), ("stopped watching", went)):
            for name, code in who:
                self.log_line(f"{name} ({code}) {verb}.")
        await self.redraw()

    def seat_marks(self, seat: int) -> list[str]:
        """The seat's presence, in words: OFFLINE, WAIT 12s, LEFT."""
        marks = []
        if seat in self.left:
            marks.append("LEFT")
        elif seat in self._offline:
            marks.append("OFFLINE")
        if seat in self._holding_up and seat not in self.left:
            marks.append("WAIT")
        return marks

    def presence_hint(self) -> str | None:
        """The hint line's news about the table itself, if any outranks the game's."""
        if self.ended is not None:
            return f"The table has ended ({self.ended.reason}). s: scores · Esc: lobby · q: quit"
        if self.left:
            who = ", ".join(self.names[s] for s in self.left)
            return f"{who} left the table: e ends it with the result so far."
        if self.moves_held:
            return f"{self.moves_waiting_text()}."
        return self.waiting_hint()

    def waiting_hint(self) -> str | None:
        """Whom the table has waited for past the silence limit, and what each owes: "Waiting
        for Bob: shares for the doubt · Sam: their turn" (protocol.md 10.6)."""
        owing = [(s, self._owes.get(s, ())) for s in sorted(self._holding_up) if s not in self.left]
        if not owing:
            return None
        parts = [
            f"{self.names[s]}: {', '.join(what)}" if what else self.names[s] for s, what in owing
        ]
        return "Waiting for " + " · ".join(parts)

    # -- leaving ---------------------------------------------------------------------------------
    def others_would_wait(self) -> bool:
        """Leaving now would leave someone waiting: the game is on and another seat is a person
        (or a bot of another process), not one of our own local bots."""
        view = self.current_view()
        if view is None or view.state.over or self.ended is not None:
            return False
        return any(not info.is_me and not info.is_bot for info in self.session.seats)

    def leave_for_lobby(self) -> None:
        """Escape: back to the lobby; at a networked game in progress, only once confirmed."""
        if self.others_would_wait():
            self.ask_to_leave(quit_app=False)
        elif len(self.app.screen_stack) > 2:
            self.app.pop_screen()

    def action_leave(self) -> None:
        self.leave_for_lobby()

    def action_new_game(self) -> None:
        """A finished game: the app seats us at a new table (ui/app.py)."""
        view = self.current_view()
        if view is not None and view.state.over:
            self.post_message(NewGameRequested())

    def offer_fairness_page(self) -> None:
        """Once, when a networked game is over: say that `f` writes its page."""
        view = self.current_view()
        over = view is not None and view.state.over
        if over and not self._offered_page and self.session.transcript_path:
            self._offered_page = True
            self.log_line("f: this table's fairness page, beside its transcript (fairdeal report).")

    def action_fairness_page(self) -> None:
        """f, once the game is over: the table's page beside its transcript (`fairdeal report`,
        ui/report/). A local table keeps no transcript: there is nothing to prove."""
        from fairdeal.ui.report.write import write_transcript_page

        view = self.current_view()
        transcript = self.session.transcript_path  # a networked table's
        if view is None or not view.state.over or transcript is None:
            self.log_line("A fairness page is made of a finished networked table's transcript.")
            return
        self.log_line(write_transcript_page(transcript))

    async def on_unmount(self) -> None:
        await self.session.close()

    @work(group="leaving")
    @reported("Leaving the table")
    async def ask_to_leave(self, quit_app: bool) -> None:
        """Ask first; on yes tell the others (a signed `left`) and leave with the result so far."""
        if self._asking_to_leave:
            return
        self._asking_to_leave = True
        try:
            dialog = ConfirmDialog(
                "Leave this table?",
                "The game cannot go on without you: the other seats are told you left, and "
                "they can end the table with the result so far.",
                "leave" if not quit_app else "leave and quit",
                "keep playing",
            )
            if not await self.app.push_screen_wait(dialog):
                return
        finally:
            self._asking_to_leave = False
        me = self.names[self.session.seat]
        await self.session.end_table(f"{me} left the table")
        if quit_app:
            self.app.exit()
        elif isinstance(self, Screen) and self.is_current:
            self.app.pop_screen()

    @work(group="leaving")
    @reported("Ending the table")
    async def action_end_table(self) -> None:
        """e: the remaining players end a table that cannot go on (a seat left, or withholds its
        coin reveal past the silence limit)."""
        if not self.left and self._withholding:
            who = ", ".join(self.names[s] for s in sorted(self._withholding))
            dialog = ConfirmDialog(
                "End the table now?",
                f"{who} withholds its coin reveal. The table stops naming it, with its signed "
                "commitment as evidence.",
                "end the table",
                "wait",
            )
            if await self.app.push_screen_wait(dialog):
                self.session.end_over_withheld_reveal()
            return
        if not self.left or self.ended is not None:
            await self.say("✗ Nobody has left: the table goes on.")
            return
        who = ", ".join(self.names[s] for s in self.left)
        dialog = ConfirmDialog(
            "End the table now?",
            f"{who} left. Everyone keeps the result so far (the hands already scored).",
            "end the table",
            "wait",
        )
        if await self.app.push_screen_wait(dialog):
            me = self.names[self.session.seat]
            await self.session.end_table(f"{me} ended the table after {who} left")


def left_notice(name: str, reason: str) -> str:
    """ "Bob left the table." — with the signed reason only where it says more than that (a
    reason that names the seat already is the whole sentence)."""
    if reason.startswith(name):
        return reason.rstrip(".") + "."
    return f"{name} left the table ({reason})."
