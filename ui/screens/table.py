"""The table: seats, limit, pile, your hand, the log, and the actions of a turn.

The screen keeps no game state: it redraws from `session.view()` on every `StateChanged`. A worker
follows `session.events()`; modal views (a doubt, scores, a fault) queue up and show one at a time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Static

from fairdeal.engine.larry import (
    AcceptOut,
    Action,
    Card,
    CardKind,
    Doubt,
    IllegalAction,
    LarryView,
    Phase,
    PlayFaceDown,
    PlayFaceUp,
)
from fairdeal.engine.larry import events as ev
from fairdeal.p2p.table.api import (
    DoubtVerification,
    FaultDetected,
    Notice,
    SeatStatus,
    SetupProgress,
    StateChanged,
    TableEvent,
    TableSession,
)
from fairdeal.ui.describe import card_name, card_use, event_text
from fairdeal.ui.messages import CardChosen, NewGameRequested
from fairdeal.ui.screens.announce import AnnounceDialog
from fairdeal.ui.screens.doubt import DoubtScreen
from fairdeal.ui.screens.fault import FaultScreen
from fairdeal.ui.screens.help import HelpScreen
from fairdeal.ui.screens.pick import PickDialog
from fairdeal.ui.screens.scores import ScoresScreen
from fairdeal.ui.widgets.game_log import GameLog
from fairdeal.ui.widgets.hand import HandView
from fairdeal.ui.widgets.pile_view import PileView
from fairdeal.ui.widgets.seat_list import SeatList
from fairdeal.ui.widgets.table_status import TableStatus, setup_text

TARGETED = (CardKind.FACE_UP, CardKind.PICK_UP_2, CardKind.GIVE_AWAY_1)
DOUBT_LINGER_S = 3.0  # how long a doubt between other seats stays up once fully turned over


class TableScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "select(-1)", "Card", key_display="←→"),
        Binding("right", "select(1)", "Card", show=False),
        Binding("enter", "play_down", "Face-down"),
        Binding("u", "play_up", "Face-up"),
        Binding("d", "doubt", "Doubt"),
        Binding("a", "accept", "Let go"),
        Binding("l", "larry", "Larry!"),
        Binding("s", "scores", "Scores"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("escape", "leave", "Lobby", show=False),
        Binding("n", "new_game", "New game", show=False),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]

    def __init__(self, session: TableSession, *, reveal_interval: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.reveal_interval = reveal_interval
        self.selected = 0
        self.larry_armed = False
        self.events_seen = 0  # table events handled so far (tests wait for the session's count)
        self.hand_scores: list[tuple[int, ...]] = []
        self.winners: tuple[int, ...] | None = None
        self.message = ""
        self._modals: deque[Callable[[], Screen[None]]] = deque()
        self._modal_open = False
        self._busy = False  # a dialog of ours (announce, pick) is open
        self._pile_totals_shown: tuple[int, ...] = ()
        self._have_state = False  # a networked table has no view until keys and deal are done
        self._setup: SetupProgress | None = None
        self._gathering = "waiting for the seats"  # a networked table's news until setup
        self._holding_up: set[int] = set()  # seats the table is waiting on (SeatStatus)
        self._offline: set[int] = set()

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield SeatList(id="seats")
            yield TableStatus(id="status")
        yield PileView(id="pile")
        yield HandView(id="hand")
        yield Static(id="hint", markup=False)  # names and reasons come from peers
        yield GameLog(id="log")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(SeatList).styles.height = len(self.session.seats) + 2
        self.follow_table()

    @work(exclusive=True, group="table-events")
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
            self.events_seen += 1
        if not self._have_state:  # a networked table can end before it begins (no answer)
            await self.say("✗ The table closed before the game began (see the log). Esc: lobby")

    # -- events ----------------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.session.seats]

    async def handle(self, event: TableEvent) -> None:
        if isinstance(event, StateChanged):
            await self._on_state_changed(event)
        elif isinstance(event, SetupProgress):
            await self._on_setup_progress(event)
        elif isinstance(event, DoubtVerification):
            self._queue_doubt(event)
        elif isinstance(event, SeatStatus):
            await self._on_seat_status(event)
        elif isinstance(event, FaultDetected):
            name = self.names[event.seat]
            self.log_line(f"FAULT by {name}: {event.what}. Evidence: {event.evidence}")
            self._queue_modal(lambda: FaultScreen(event, name))
        elif isinstance(event, Notice):
            self.log_line(event.text)
            if not self._have_state:  # gathering: the latest news is the hint
                self._gathering = event.text.rstrip(".…")
                await self.refresh_table()

    def _queue_doubt(self, event: DoubtVerification) -> None:
        """Queue the doubt view; one between other seats closes by itself once it is all shown
        (when cards are turned over slowly, i.e. in the app), one involving us waits for a key."""
        deck = self.session.view().deck
        said = self._pile_totals_shown  # from the last state before the doubt
        ours = self.session.seat in (event.doubter, event.last_player)
        linger = None if ours or self.reveal_interval <= 0 else DOUBT_LINGER_S
        self._queue_modal(
            lambda: DoubtScreen(
                event, self.session.seats, deck, self.reveal_interval, said, linger=linger
            )
        )

    def log_line(self, line: str) -> None:
        self.query_one(GameLog).say(line)

    async def _on_state_changed(self, event: StateChanged) -> None:
        self._have_state = True
        self.message = ""  # an old complaint does not outlive the state it was about
        deck = self.session.view().deck
        game_over = any(isinstance(e, ev.GameOver) for e in event.events)
        for engine_event in event.events:
            line = event_text(engine_event, self.names, deck)
            if line:
                self.log_line(line)
            self._on_engine_event(engine_event, game_over)
        self._pile_totals_shown = event.state.pile_totals
        await self.refresh_table()

    async def _on_setup_progress(self, event: SetupProgress) -> None:
        self._setup = event
        self.query_one(TableStatus).setup = event
        if event.done == event.total and event.phase in ("deal", "reshuffle"):
            self.log_line(f"Setup: {setup_text(event, self.session.seats)}.")
        await self.refresh_table()

    async def _on_seat_status(self, event: SeatStatus) -> None:
        """The seat list shows every update; the log and a notification only the changes."""
        self.query_one(SeatList).set_status(event.seat, event.connected, event.waiting_seconds)
        name = self.names[event.seat]
        if event.waiting_seconds is not None and event.seat not in self._holding_up:
            self._holding_up.add(event.seat)
            text = f"{name} is holding up the game ({event.waiting_seconds:.0f} s)."
            self.notify(text, title="Waiting", severity="warning")
            self.log_line(text)
        elif event.waiting_seconds is None and event.seat in self._holding_up:
            self._holding_up.discard(event.seat)
            self.log_line(f"{name} is playing again.")
        if not event.connected and event.seat not in self._offline:
            self._offline.add(event.seat)
            self.log_line(f"{name} lost the connection.")
        elif event.connected and event.seat in self._offline:
            self._offline.discard(event.seat)
            self.log_line(f"{name} is connected again.")
        await self.refresh_table()

    def _on_engine_event(self, event: ev.Event, game_over: bool) -> None:
        if isinstance(event, ev.HandScored):
            self.hand_scores.append(event.hand_scores)
            if not game_over:  # the final hand's scores show in the game-over table
                self._queue_scores(None)
        elif isinstance(event, ev.GameOver):
            self.winners = event.winners
            self._queue_scores(event.winners)

    def _queue_scores(self, winners: tuple[int, ...] | None) -> None:
        scores = list(self.hand_scores)
        title = "Game over" if winners is not None else f"Scores after hand {len(scores)}"
        self._queue_modal(lambda: ScoresScreen(self.session.seats, scores, winners, title))

    def _queue_modal(self, make: Callable[[], Screen[None]]) -> None:
        self._modals.append(make)
        self._show_next_modal()

    def _show_next_modal(self) -> None:
        if self._modal_open or self._busy or not self._modals:
            return
        self._modal_open = True
        self.app.push_screen(self._modals.popleft()(), callback=self._modal_closed)

    def _modal_closed(self, _result: object = None) -> None:
        self._modal_open = False
        self._show_next_modal()

    # -- drawing ---------------------------------------------------------------------------------
    def hand_cards(self, view: LarryView) -> tuple[Card | None, ...]:
        deck = view.deck
        return tuple(deck[face] if face is not None else None for _, face in view.hand)

    async def refresh_table(self) -> None:
        """Redraw from the session's current view. Everything but the hand is drawn before the
        first await, so overlapping refreshes (a table event and our own action) end in order."""
        view = self.current_view()
        seats = self.session.seats
        if view is None:
            doing = setup_text(self._setup, seats) if self._setup else self._gathering
            hint = self.message or f"Setting up the table: {doing}…"
            self.query_one("#hint", Static).update(hint)
            return
        cards = self.hand_cards(view)
        self.selected = max(0, min(self.selected, len(cards) - 1))
        seat_list = self.query_one(SeatList)
        seat_list.styles.height = len(seats) + 2  # a joined table learns its seats late
        seat_list.show(view, seats)
        self.query_one(TableStatus).show(view, seats)
        self.query_one(PileView).show(view, seats)
        self.query_one("#hint", Static).update(self.hint_text(view))
        await self.query_one(HandView).show(cards, self.selected)

    def current_view(self) -> LarryView | None:
        """This seat's view, or None before the table has a state (setup still running)."""
        return self.session.view() if self._have_state else None

    def hint_text(self, view: LarryView) -> str:
        parts: list[str] = []
        if self.message:
            parts.append(self.message)
        elif view.state.over:
            parts.append("The game is over. s: scores · n: new game · Esc: lobby · q: quit")
        elif view.my_turn:
            obliged = " You must play face-up (L12) or doubt." if view.obligated[view.seat] else ""
            if view.phase is Phase.GOING_OUT:
                parts.append("YOUR TURN: d doubt the last card, a let them go out (L16).")
            else:
                parts.append(f"YOUR TURN.{obliged}")
                if len(view.hand) == 2 and not self.larry_armed:
                    parts.append('Press l to call "Larry!" with this play (L15).')
        else:
            seat = view.to_act
            parts.append(f"Waiting for {self.names[seat]}…" if seat is not None else "Dealing…")
        cards = self.hand_cards(view)
        if cards and not self.message:
            card = cards[self.selected]
            what = card_name(card) if card is not None else "a card"
            use = card_use(card) if card is not None else ""
            use = f" — {use}" if use else ""
            parts.append(f"Card {self.selected + 1} of {len(cards)}: {what}{use}.")
        if self.larry_armed:
            parts.append("[LARRY! armed]")
        return " ".join(parts)

    async def say(self, message: str) -> None:
        self.message = message
        await self.refresh_table()

    # -- actions ---------------------------------------------------------------------------------
    async def action_select(self, step: int) -> None:
        self.message = ""
        view = self.current_view()
        count = len(view.hand) if view is not None else 0
        if count:
            self.selected = (self.selected + step) % count
        await self.refresh_table()

    async def action_pick(self, index: int) -> None:
        view = self.current_view()
        if view is not None and index < len(view.hand):
            self.selected = index
            self.message = ""
            await self.refresh_table()

    async def on_card_chosen(self, message: CardChosen) -> None:
        if message.index == self.selected:
            self.action_play_down()
        else:
            await self.action_pick(message.index)

    async def act(self, action: Action) -> bool:
        """Send an action; an illegal one is explained, not raised."""
        try:
            await self.session.act(action)
        except IllegalAction as error:
            self.app.bell()
            await self.say(f"✗ Not allowed: {error.reason}")
            return False
        self.larry_armed = False
        self.message = ""
        await self.refresh_table()
        return True

    def _selected_card(self, view: LarryView) -> tuple[int, Card] | None:
        if not view.hand:
            return None
        slot, face = view.hand[self.selected]
        return (slot, view.deck[face]) if face is not None else None

    @work(exclusive=True, group="dialog")
    async def action_play_down(self) -> None:
        view = self.current_view()
        chosen = self._selected_card(view) if view is not None else None
        if view is None or not view.my_turn or chosen is None:
            await self.say("✗ It is not your turn.")
            return
        slot, card = chosen
        honest = view.announced + (card.value if card.kind is CardKind.NUMBER else 0)
        announce = await self._ask(AnnounceDialog(card_name(card), honest, view.limit))
        if announce is not None:
            await self.act(PlayFaceDown(slot, announce, self.larry_armed))

    @work(exclusive=True, group="dialog")
    async def action_play_up(self) -> None:
        view = self.current_view()
        chosen = self._selected_card(view) if view is not None else None
        if view is None or not view.my_turn or chosen is None:
            await self.say("✗ It is not your turn.")
            return
        slot, card = chosen
        target = give = None
        if card.kind in TARGETED:
            others = [(n, s) for s, n in enumerate(self.names) if s != view.seat]
            target = await self._ask(PickDialog(f"Play {card_name(card)} against whom?", others))
            if target is None:
                return
        if card.kind is CardKind.GIVE_AWAY_1:
            deck = view.deck
            gifts = [
                (f"card {i + 1}: {card_name(deck[f])}", s)
                for i, (s, f) in enumerate(view.hand)
                if s != slot and f is not None
            ]
            give = await self._ask(PickDialog(f"Give which card to {self.names[target]}?", gifts))
            if give is None:
                return
        await self.act(PlayFaceUp(slot, card.kind, target, give, self.larry_armed))

    async def action_doubt(self) -> None:
        await self.act(Doubt())

    async def action_accept(self) -> None:
        await self.act(AcceptOut())

    async def action_larry(self) -> None:
        self.larry_armed = not self.larry_armed
        self.message = ""
        await self.refresh_table()

    def action_scores(self) -> None:
        self._queue_scores(self.winners)

    def action_help(self) -> None:
        self._queue_modal(lambda: HelpScreen("larry"))

    def action_new_game(self) -> None:
        view = self.current_view()
        if view is not None and view.state.over:
            self.post_message(NewGameRequested())

    def action_leave(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()

    async def _ask(self, dialog: Screen[int | None]) -> int | None:
        """Open one of our dialogs and wait for its answer (bots wait for us meanwhile)."""
        self._busy = True
        try:
            return await self.app.push_screen_wait(dialog)
        finally:
            self._busy = False
            self._show_next_modal()

    async def on_unmount(self) -> None:
        await self.session.close()
