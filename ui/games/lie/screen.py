"""The Lie's table: Phase 1, a race for the cards on the table (T3); Phase 2, tricks (T5-T7).

Phase 1 (T3): the cursor and Enter (or a click) take a card; its front shows beside the hand,
and ← → (or a d) place it at that end of the hand; only then may the next card be taken.

Like the Larry table, the screen keeps no game state of its own beyond what it shows (the trick
on display, the round results, the proofs of the fronts revealed): it redraws from
`session.view()` on every `StateChanged`, and a worker follows `session.events()`. Modal views
(round scores, the final scores, a fault) queue up and show one at a time. A session that can
hold its bots until the player is ready (`ready`, the local table) is told so whenever a round's
Phase 1 is on screen with nothing in front of it.

At a networked table, as at Larry's: the seats keying and shuffling (`SetupProgress`) before the
first state and between rounds; each claimed front arriving (`CardsVerified` "claim": ·· until
the others' shares are in); every played combination's proof, ✓ or ✗ ("play"); the prizes turned
over with their proofs at the end ("prizes"); the fault screen when a seat cheats; the seats
waiting, disconnected or gone, and leaving (TablePresence). A local table has nothing to prove:
its fronts carry no mark.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, cast

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Static

from fairdeal.engine.lie import (
    Claim,
    IllegalAction,
    LieState,
    LieView,
    Pass,
    Phase,
    Place,
    Play,
    Side,
    SlotTaken,
    check_action,
    fronts_behind,
    legal_actions,
)
from fairdeal.engine.lie import events as ev
from fairdeal.engine.lie.cards import DECK
from fairdeal.engine.requests import Arrange, GroupedReshuffle, NewGroupedDeck, Reveal
from fairdeal.p2p.table.api import (
    CardsVerified,
    ClaimVoid,
    FaultDetected,
    Notice,
    ProofStatus,
    SeatLeft,
    SeatReturned,
    SeatStatus,
    SetupProgress,
    StateChanged,
    TableEnded,
    TableEvent,
    TableSession,
    WatchersChanged,
)
from fairdeal.ui.games.lie.narrator import claim_void_text, lie_event_text
from fairdeal.ui.games.lie.scores import LieScoresScreen, RoundResult
from fairdeal.ui.games.lie.widgets.cards import back_label, front_label, letters_for
from fairdeal.ui.games.lie.widgets.hand import LieHandView
from fairdeal.ui.games.lie.widgets.players import LiePlayersView
from fairdeal.ui.games.lie.widgets.table_grid import COLUMNS, LieTableGrid
from fairdeal.ui.games.lie.widgets.trick import LieTrickView, TrickLine, TrickShown
from fairdeal.ui.messages import NewGameRequested
from fairdeal.ui.proofs import combined
from fairdeal.ui.screens.fault import FaultScreen
from fairdeal.ui.screens.help import HelpScreen
from fairdeal.ui.screens.presence import TablePresence
from fairdeal.ui.widgets.game_log import GameLog
from fairdeal.ui.widgets.setup_progress import setup_text
from fairdeal.ui.wording import counted, seat_names

log = logging.getLogger("fairdeal.ui")

PHASE_1_ACTIONS = frozenset({"cursor", "claim"})  # with nothing to place
PLACING_ACTIONS = frozenset({"place", "place_first"})  # with a taken card to place (T3)
PHASE_2_ACTIONS = frozenset({"select", "grow", "next_play", "play", "pass_go"})
LOG_ROOM_IN_PHASE_1 = 26  # below this many rows Phase 1's log has no room for its frame

# The Lie's own setup phase: the fair deck draws the places of the cards on the table.
SETUP_WORDS = {"arrange": ("drawing where the cards lie", "the cards' places are drawn")}


class LieTableScreen(Screen[None], TablePresence):
    DEFAULT_CSS = """
    LieTableScreen { layout: vertical; overflow: hidden; }
    LieTableScreen #lie-status { height: auto; max-height: 2; padding: 0 1;
                                 background: $primary 30%; }
    LieTableScreen #lie-grid { height: 8; border: round $secondary; padding: 0 1; }
    LieTableScreen #lie-middle { height: 1fr; min-height: 2; }
    LieTableScreen #lie-trick { width: 1fr; height: 100%; border: round $secondary;
                                padding: 0 1; }
    LieTableScreen #lie-log { width: 1fr; height: 1fr; border: round $surface-lighten-2;
                              padding: 0 1; }
    LieTableScreen #lie-log.-compact { border: none; border-top: round $surface-lighten-2;
                                       min-height: 2; }
    LieTableScreen #lie-players { height: auto; border: round $primary; padding: 0 1; }
    LieTableScreen #lie-hand { height: 5; border: round $primary; padding: 0 1; }
    LieTableScreen #lie-hint { height: auto; max-height: 2; padding: 0 1; background: $panel; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Phase 1 (T3): a taken card is placed first (← → or a d), before the cursor moves on;
        # with nothing to place, move over the table and take a card with Enter.
        Binding("left,a", "place('left')", "Place ◀left", key_display="←/a"),
        Binding("right,d", "place('right')", "Place right▶", key_display="→/d"),
        Binding("left", "cursor(-1, 0)", "Move", key_display="←→↑↓"),
        Binding("right", "cursor(1, 0)", show=False),
        Binding("up", "cursor(0, -1)", show=False),
        Binding("down", "cursor(0, 1)", show=False),
        Binding("enter,space", "claim", "Take", key_display="⏎"),
        Binding("enter,space", "place_first", show=False),  # while placing: says why not
        # Phase 2 (T5): choose 1-3 adjacent cards of one colour, play or pass.
        Binding("left", "select(-1)", "Card", key_display="←→"),
        Binding("right", "select(1)", show=False),
        Binding("up,plus", "grow(1)", "More/fewer", key_display="↑↓"),
        Binding("down,minus", "grow(-1)", show=False),
        Binding("tab", "next_play", "Next legal"),
        Binding("enter", "play", "Play"),
        Binding("p", "pass_go", "Pass"),
        # Always.
        Binding("s", "scores", "Scores"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("escape", "leave", "Lobby", show=False),
        Binding("e", "end_table", "End table", show=False),
        Binding("n", "new_game", "New game"),
    ]

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self.init_table_state()

    def init_table_state(self) -> None:
        """What the screen knows of the table, as before its first event (a replay stepping
        back starts it again on the same screen, ui/screens/replay.py)."""
        self.cursor = 0  # a table position (Phase 1)
        self.sel_start = 0  # the selection in the hand (Phase 2): start and length
        self.sel_len = 1
        self.message = ""
        self.events_seen = 0  # table events handled so far (tests wait for the session's count)
        self.trick: TrickShown | None = None  # the trick on display: current, or the last won
        self._new_trick: TrickShown | None = None  # the trick under way once one is won
        self.rounds: list[RoundResult] = []
        self.final: ev.GameOver | None = None
        self._have_state = False
        self._last_state: LieState | None = None  # of the last StateChanged handled
        self._phase: Phase | None = None
        self._placing = False  # a taken card waits to be placed: the footer shows place keys
        self._was_my_turn = False
        self._readied_round = 0
        self._modals: deque[Callable[[], Screen[None]]] = deque()
        self._modal_open = False
        self._setup: SetupProgress | None = None  # the latest, until it is done
        self._prize_lines: list[str] = []  # prizes turned over, logged once the round has ended
        self._round_ended = 0  # the last round whose end this screen has logged
        self._gathering = "waiting for the seats"  # a networked table's news before its state
        self.proofs: dict[int, ProofStatus] = {}  # slot -> the proof of its revealed front
        self.fault: FaultDetected | None = None  # a seat broke the rules: the game stopped
        self._claimed: set[int] = set()  # our claims not yet settled (a networked table)
        self.prize_proofs: dict[int, ProofStatus] = {}  # seat -> its prizes' proof, at the end
        self.init_presence()

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="lie-status", markup=False)
        yield LieTableGrid(id="lie-grid")
        yield LiePlayersView(id="lie-players")
        yield LieHandView(id="lie-hand")
        yield Static(id="lie-hint", markup=False)  # names come from peers
        with Horizontal(id="lie-middle"):
            yield LieTrickView(id="lie-trick")
            yield GameLog(id="lie-log")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#lie-hint", Static).update("Setting up the table…")
        self.follow_table()

    @work(exclusive=True, group="table-events")
    async def follow_table(self) -> None:
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
        if not self._have_state:  # a networked table can end before it begins (no answer)
            why = self._gathering if self._gathering.startswith("✗") else ""
            await self.say(f"{why or '✗ The table closed before the game began'}. Esc: lobby")

    # -- the view --------------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.session.seats]

    def current_view(self) -> LieView | None:
        return cast(LieView, self.session.view()) if self._have_state else None

    def letters(self, view: LieView) -> tuple[str, ...]:
        return letters_for(view.options.colour_names)

    # -- events ----------------------------------------------------------------------------------
    async def handle(self, event: TableEvent) -> None:
        if isinstance(event, StateChanged):
            self._on_state_changed(event)
        elif isinstance(event, CardsVerified):
            self._on_cards_verified(event)
        elif isinstance(event, SetupProgress):
            self._on_setup_progress(event)
        elif isinstance(event, FaultDetected):
            name = self.names[event.seat]
            self.fault = event
            self.log_line(f"✗ FAULT by {name}: {event.what}. Evidence: {event.evidence}")
            self._queue_modal(lambda: FaultScreen(event, name))
            self.refresh_table()
        elif isinstance(event, SeatStatus):
            await self.follow_seat_status(event)
        elif isinstance(event, SeatLeft):
            await self.follow_seat_left(event)
        elif isinstance(event, SeatReturned):
            await self.follow_seat_returned(event)
        elif isinstance(event, TableEnded):
            self._on_table_ended(event)
        elif isinstance(event, WatchersChanged):
            await self.follow_watchers(event)
        elif isinstance(event, Notice):
            view = self.current_view()
            if isinstance(event, ClaimVoid) and view is not None:  # names and the card's back
                self.log_line(claim_void_text(event, self.names, view.backs, self.letters(view)))
            else:
                self.log_line(seat_names(event.text, self.names))
            if not self._have_state:  # gathering: the latest news is the hint
                self._gathering = event.text.rstrip(".…")
                self.refresh_table()

    def _on_setup_progress(self, event: SetupProgress) -> None:
        """Seats keying, shuffling, arranging: on the status line (the hint before the first
        state) until every seat is done, then a line in the log. A claim's deal and a play's
        reveal are no setting up: the table is playing (the state says what it waits for)."""
        if self._have_state and event.phase in ("deal", "reveal"):
            return
        if event.done >= event.total:
            self._setup = None
            proofs = f" ({event.proofs_verified} proofs checked)" if event.proofs_verified else ""
            self.log_line(f"Setup: every seat's {event.phase} is done{proofs}.")
        else:
            self._setup = event
        self.refresh_table()

    def _on_cards_verified(self, event: CardsVerified) -> None:
        """Fronts the fair deck revealed, with their proofs: kept by slot for the trick and the
        hand to mark; a claim's front arriving and the prizes turned over are logged."""
        for card in event.cards:
            self.proofs[card.slot] = card.proof
        status = combined(card.proof for card in event.cards)
        view = self.current_view()
        if view is None or not event.cards:  # a seat that won no prizes has none to turn over
            return
        letters = self.letters(view)
        fronts = " ".join(front_label(card.face, letters) for card in event.cards)
        proved = {ProofStatus.VERIFIED: " ✓ proved", ProofStatus.FAILED: " ✗ its proof FAILED"}
        said = proved.get(status, "") if status is not None else ""
        if event.reason == "claim" and event.seat == view.seat and said:
            backs = " ".join(back_label(view.backs[card.slot], letters) for card in event.cards)
            self.log_line(f"Your {backs} is {fronts}{said}.")
        elif event.reason == "prizes":
            self.prize_proofs[event.seat] = status or ProofStatus.NOT_APPLICABLE
            line = f"{self.names[event.seat]}'s prizes turned over: {fronts}{said}."
            if self._round_ended < view.state.round_no:  # the last trick's news comes first
                self._prize_lines.append(line)
            else:
                self.log_line(line)
        self.refresh_table()

    def _on_table_ended(self, event: TableEnded) -> None:
        """We stopped playing here (we left, or ended the table after a seat left): the result
        so far, the rounds already scored."""
        self.ended = event
        names = self.names
        if event.leaders:  # the game was over: points (T10)
            totals = ", ".join(f"{names[s]} {score}" for s, score in enumerate(event.scores))
            leaders = ", ".join(names[s] for s in event.leaders)
            winners = "winner" if len(event.leaders) == 1 else "winners"
            result = f"points {totals}; {winners}: {leaders}"
        else:
            won = ", ".join(f"{names[s]} {count}" for s, count in enumerate(event.scores))
            result = f"prize cards won {won} (unseen, so nobody leads: T8)"
        self.log_line(
            f"The table has ended ({event.reason}). "
            f"After {counted(event.hands, 'round')}: {result}."
        )
        self._queue_scores(f"Table ended after {counted(event.hands, 'round')}")
        self.refresh_table()

    async def say(self, message: str) -> None:
        self.message = message
        if self._have_state:
            self.refresh_table()
        else:
            self.query_one("#lie-hint", Static).update(message)

    async def redraw(self) -> None:
        self.refresh_table()

    def log_line(self, line: str) -> None:
        self.query_one(GameLog).say(line)

    def _on_state_changed(self, event: StateChanged) -> None:
        self._have_state = True
        self._setup = None  # a setup step (keys, shuffle, layout) ends in the state it made
        self._last_state = cast(LieState, event.state)
        view = cast(LieView, self.session.view())
        letters = self.letters(view)
        colours = view.options.colour_names
        names = self.names
        round_over = game_over = False
        for engine_event in event.events:
            line = lie_event_text(engine_event, names, letters, colours)
            if line:
                self.log_line(line)
            if isinstance(engine_event, ev.RoundEnded):
                round_over = True
                self._round_ended = engine_event.round
                for prize_line in self._prize_lines:  # turned over before the round's end came
                    self.log_line(prize_line)
                self._prize_lines.clear()
                self.rounds.append(RoundResult(engine_event.round, engine_event.placement))
            elif isinstance(engine_event, ev.GameOver):
                game_over = True
                self.final = engine_event
            self._follow(engine_event, view)
        if game_over:
            self._queue_scores("Game over")
        elif round_over and self.rounds[-1].round < view.options.rounds:
            self._queue_scores(f"Round {self.rounds[-1].round} of {view.options.rounds} is over")
        elif round_over:  # the last round: the game-over table follows once the prizes are open
            self.log_line("The prizes are being turned over (T10)…")
        placing = view.unplaced is not None  # T3: the keys place now, not move or take
        if view.phase is not self._phase or placing is not self._placing:
            if view.phase is not self._phase:
                self.message = ""
            self._phase = view.phase
            self._placing = placing
            self.refresh_bindings()
        self.refresh_table()

    def _follow(self, event: object, view: LieView) -> None:
        """Keep the trick on display and the round results up to date; say lost races."""
        if isinstance(event, ev.RoundStarted):
            self.trick = None
            self.cursor = 0
            self._claimed.clear()
        elif isinstance(event, ev.Claimed) and event.seat == view.seat:
            self._claimed.discard(event.slot)  # ours: it took effect
        elif isinstance(event, ev.Claimed) and event.seat != view.seat:
            layout = view.state.layout
            if event.slot in self._claimed:  # a networked race for our claim, and we lost it
                self._claimed.discard(event.slot)
                name = self.names[event.seat]
                back = back_label(event.back, self.letters(view))
                self.message = (
                    f"✗ {name} won the race for the {back} you claimed (T3): your claim is void."
                )
            elif self.cursor < len(layout) and layout[self.cursor] == event.slot:
                name = self.names[event.seat]
                back = back_label(event.back, self.letters(view))
                self.message = f"✗ {name} got the {back} under your cursor first; it moved on."
        elif isinstance(event, ev.TrickStarted):
            self._new_trick = TrickShown(event.trick, (), None, None, 0)
            if self.trick is None or self.trick.winner is None:
                self.trick = self._new_trick
        elif isinstance(event, ev.Played | ev.Passed):
            trick = self._current_trick()
            if isinstance(event, ev.Played):
                line = TrickLine(event.seat, event.cards, event.number, event.slots)
                lead = trick.lead_colour if trick.lead_colour is not None else event.colour
                self.trick = replace(
                    trick, lines=(*trick.lines, line), lead_colour=lead, best=event.number
                )
            else:
                self.trick = replace(trick, lines=(*trick.lines, TrickLine(event.seat, (), 0)))
        elif isinstance(event, ev.TrickWon) and self.trick is not None:
            self.trick = replace(self.trick, winner=event.seat)
        elif isinstance(event, ev.PrizesTaken) and self.rounds:
            self.rounds[-1].prizes[event.seat] = len(event.slots)

    def _current_trick(self) -> TrickShown:
        """The trick being played: the new one once its first play comes (the won one stays
        on show until then)."""
        if self.trick is None or self.trick.winner is not None:
            self.trick = self._new_trick or TrickShown(1, (), None, None, 0)
        return self.trick

    def _queue_scores(self, title: str) -> None:
        seats, rounds, final = self.session.seats, list(self.rounds), self.final
        view = cast(LieView, self.session.view())
        letters = self.letters(view)
        proofs = dict(self.prize_proofs)
        self._queue_modal(lambda: LieScoresScreen(seats, rounds, final, letters, title, proofs))

    def _queue_modal(self, make: Callable[[], Screen[None]]) -> None:
        self._modals.append(make)
        self._show_next_modal()

    def _show_next_modal(self) -> None:
        if self._modal_open or not self._modals:
            return
        self._modal_open = True
        self.app.push_screen(self._modals.popleft()(), callback=self._modal_closed)

    def _modal_closed(self, _result: object = None) -> None:
        self._modal_open = False
        self._show_next_modal()
        self._maybe_ready()

    def _maybe_ready(self) -> None:
        """Let a table that holds its bots at the start of a round know the player can see it.

        Judged on the last state whose events this screen has handled, not the session's newest:
        our own last play of a round ends it before its score table is queued."""
        state = self._last_state
        ready = getattr(self.session, "ready", None)
        if state is None or ready is None or self._modal_open or state.phase is not Phase.BUILD:
            return
        if state.round_no > self._readied_round:
            self._readied_round = state.round_no
            ready(state.round_no)

    # -- drawing ---------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        view = self.current_view()
        if view is None:
            doing = (
                setup_text(self._setup, self.session.seats, SETUP_WORDS)
                if self._setup
                else self._gathering
            )
            hint = self.message or f"Setting up the table: {doing}…"
            self.query_one("#lie-hint", Static).update(hint)
            return
        state = view.state
        letters = self.letters(view)
        building = state.phase is Phase.BUILD
        self.query_one(LieTableGrid).display = building
        self.query_one(LieTrickView).display = not building
        # Phase 1 on a short terminal: the log keeps its rows, with only a top rule for a frame
        self.query_one(GameLog).set_class(
            building and self.size.height < LOG_ROOM_IN_PHASE_1, "-compact"
        )
        self.query_one("#lie-status", Static).update(self.status_text(view))
        seats = self.session.seats
        marks = {seat: self.seat_marks(seat) for seat in range(len(seats))}
        self.query_one(LiePlayersView).show(view, seats, marks, self.watchers)
        cards = tuple(
            (face, state.backs[slot])
            for slot, face in zip(state.hands[view.seat], view.hand_faces, strict=True)
        )
        if building:
            self.cursor = self._nearest_card(view, self.cursor)
            self.query_one(LieTableGrid).show(
                state.layout, state.table, state.backs, letters, self.cursor
            )
            size = state.options.hand_size
            title = f"Your hand {len(cards)}/{size}: fronts, backs below"
            taken = view.unplaced
            new_card = None
            if taken is not None:  # T3: the card taken, beside the hand until it is placed
                face = view.unplaced_face
                new_card = (face if face is not None else -1, state.backs[taken])
                title = f"Your hand {len(cards)}/{size} and your new card: ← or → places it"
            arriving = sum(face < 0 for face, _ in cards)
            if arriving:  # a networked table: the others' shares for these are on their way
                title += f" · {arriving} front(s) on the way ··"
            if view.pending_claims:  # a networked table: these races are not decided yet (T3)
                title += f" · {len(view.pending_claims)} claim(s) settling"
            hand_view = self.query_one(LieHandView)
            hand_view.styles.height = 4  # no choices to mark while grabbing
            hand_view.show(cards, letters, title=title, new_card=new_card)
        else:
            my_turn = view.my_turn
            if my_turn and not self._was_my_turn:
                self._select_first_legal(view)
            self._was_my_turn = my_turn
            self._clamp_selection(view)
            selected = range(self.sel_start, self.sel_start + self.sel_len) if cards else range(0)
            playable = self._playable_indices(view) if my_turn else ()
            self.query_one(LieHandView).styles.height = 5
            self.query_one(LieHandView).show(
                cards, letters, selected if my_turn else range(0), playable, "Your hand"
            )
            waiting = state.to_act()
            self.query_one(LieTrickView).show(
                self.trick, self.names, view.options.colour_names, letters, waiting, self.proofs
            )
        self.query_one("#lie-hint", Static).update(self.hint_text(view))
        self._maybe_ready()

    def status_text(self, view: LieView) -> str:
        state = view.state
        head = f"The Lie · round {state.round_no} of {state.options.rounds}"
        if self.fault is not None:
            return f"{head} · ✗ stopped: FAULT by {self.names[self.fault.seat]}"
        if self._setup is not None:  # between rounds: the seats reshuffle and lay out (T9)
            return (
                f"{head} · setting up: {setup_text(self._setup, self.session.seats, SETUP_WORDS)}"
            )
        if state.over:
            return f"{head} · the game is over"
        busy = table_busy(state)  # what the table does before anyone may act again
        if state.phase is Phase.BUILD:
            if busy is not None and not state.claims_open():
                return f"{head} · Phase 1 · {busy}"
            if view.unplaced is not None:  # T3: the side is chosen now that the front is seen
                face = view.unplaced_face
                if face is None:
                    return f"{head} · Phase 1: your new card's front is on its way…"
                card = front_label(face, self.letters(view))
                return f"{head} · Phase 1: place the {card}: ← left or → right"
            grabbing = self._grabbing(state)
            # who was first ("Done!", T3) is marked in the players panel
            return f"{head} · Phase 1: {grabbing} · {len(state.table)} on the table"
        if state.phase is Phase.SCORING:
            return f"{head} · the prizes are turned over (T10)"
        seat = state.to_act()
        if seat is not None:
            go = "YOUR GO" if seat == view.seat else f"{self.names[seat]}'s go"
        else:
            go = busy or "between tricks"
        return (
            f"{head} · Phase 2: trick {state.trick_no} · {go} · prize pile {len(state.prize_pile)}"
        )

    def _grabbing(self, state: LieState) -> str:
        """Who grabs now (T3): everyone at once, or the seats whose hands are not full yet."""
        actors = state.actors()
        if len(actors) == len(self.session.seats):
            return "everyone grabs at once"
        if not actors:
            return "every hand is full"
        return f"{', '.join(self.names[s] for s in actors)} still grabbing"

    def hint_text(self, view: LieView) -> str:
        if self.message:
            return self.message
        if self.fault is not None:
            name = self.names[self.fault.seat]
            return f"✗ The game stopped: {name} broke the rules ({self.fault.what}). Esc: lobby"
        presence = self.presence_hint()
        if presence is not None:
            return presence
        state = view.state
        if state.over:
            return "The game is over. s: scores · n: new game · Esc: lobby · q: quit"
        if state.phase is Phase.BUILD:
            if view.unplaced is not None:
                return self._place_hint(view)
            if not view.can_claim and view.pending_claims:
                return "Your last claims fill your hand: waiting for their races to settle (T3)…"
            if not view.can_claim and not state.claims_open():
                busy = table_busy(state) or "setting up"
                return f"The table is {busy}: grab as soon as the cards are down (T3)…"
            if not view.can_claim and len(state.hands[view.seat]) >= state.options.hand_size:
                return f"Your hand is full; {self._grabbing(state)}…"
            if not view.can_claim:
                return "Waiting for the table…"
            return self._cursor_hint(view)
        if not view.my_turn:
            seat = state.to_act()
            return f"Waiting for {self.names[seat]}…" if seat is not None else "…"
        plays = self._legal_plays(view)
        colours = view.options.colour_names
        if view.leading:
            head = "YOUR LEAD: 1-3 adjacent cards of one colour (T5)."
        else:
            lead = colours[state.lead_colour] if state.lead_colour is not None else "?"
            head = f"YOUR GO: beat {state.best} in {lead}, or pass (p)."
        if not plays:
            return f"{head} You have no legal play: press p to pass."
        return f"{head} {self._selection_hint(view)} Tab: next legal play."

    def _cursor_hint(self, view: LieView) -> str:
        state = view.state
        letters = self.letters(view)
        slot = state.layout[self.cursor] if self.cursor < len(state.layout) else None
        if slot is None or slot not in state.table:
            return "Enter: take the card at the cursor (or click a card); you place it once seen."
        back = state.backs[slot]
        behind = " ".join(f"{letters[colour]}{number}" for colour, number in fronts_behind(back))
        return f"{back_label(back, letters)} hides one of {behind} (T1). Enter: take it."

    def _place_hint(self, view: LieView) -> str:
        """T3: the taken card's front is seen (or on its way); say what each end would make."""
        face = view.unplaced_face
        if face is None:
            return "Your new card's front is on its way (··): place it once you see it (T3)."
        letters = self.letters(view)
        card = front_label(face, letters)
        faces = view.hand_faces
        if not faces:
            return f"Your {card} starts your hand: ← or → places it (T3)."
        left, right = front_label(faces[0], letters), front_label(faces[-1], letters)
        return (
            f"Your new card is {card}: ← or a puts it at the left end, by your {left}; → or d at "
            f"the right end, by your {right}. Hands are never re-ordered (T3)."
        )

    def _selection_hint(self, view: LieView) -> str:
        slots = self._selected_slots(view)
        if not slots:
            return ""
        letters = self.letters(view)
        faces = dict(view.hand)
        cards = " ".join(front_label(faces[slot] or 0, letters) for slot in slots)
        number = int("".join(str(DECK[faces[slot] or 0].number) for slot in slots))
        try:
            check_action(view, Play(slots))
        except IllegalAction as error:
            return f"{cards} = {number}: ✗ {error.reason}."
        return f"{cards} = {number} ✓ Enter plays it."

    # -- Phase 1 -----------------------------------------------------------------------------------
    def _nearest_card(self, view: LieView, position: int) -> int:
        """`position` if it still holds a card, else the nearest position with one: a card
        taken from under the cursor moves the cursor on (the hint says who took it)."""
        state = view.state
        layout = state.layout
        if not layout:
            return 0
        position = max(0, min(position, len(layout) - 1))
        if layout[position] in state.table:
            return position
        on_table = set(state.table)
        for step in range(len(layout)):
            for candidate in (position + step, position - step):
                if 0 <= candidate < len(layout) and layout[candidate] in on_table:
                    return candidate
        return position

    def action_cursor(self, dx: int, dy: int) -> None:
        view = self.current_view()
        if view is None:
            return
        state = view.state
        on_table = set(state.table)
        layout = state.layout
        self.message = ""
        if dx:
            position = self.cursor + dx
            while 0 <= position < len(layout) and layout[position] not in on_table:
                position += dx
            if 0 <= position < len(layout):
                self.cursor = position
        else:
            row = self.cursor + dy * COLUMNS
            while 0 <= row < len(layout):
                start = row - row % COLUMNS
                column = self.cursor % COLUMNS
                candidates = [
                    p
                    for p in range(start, min(start + COLUMNS, len(layout)))
                    if layout[p] in on_table
                ]
                if candidates:
                    self.cursor = min(candidates, key=lambda p: abs(p % COLUMNS - column))
                    break
                row += dy * COLUMNS
        self.refresh_table()

    async def action_claim(self) -> None:
        view = self.current_view()
        if view is None or view.phase is not Phase.BUILD:
            return
        if view.unplaced is not None:
            self.action_place_first()
            return
        if not view.can_claim:
            self.message = (
                "Your claims fill your hand once they settle (T3): wait for their races."
                if view.pending_claims
                else "Your hand is full (T3): wait for the others."
            )
            self.refresh_table()
            return
        state = view.state
        if not state.layout:
            return
        slot = state.layout[self.cursor]
        if slot not in state.table:
            self._lost_race(view, slot)
            return
        try:
            await self.session.act(Claim(slot))
            # A networked claim takes effect once settled (T3, protocol.md 10.11); until then
            # another seat's claim of the same card may win the race.
            after = cast(LieView, self.session.view())
            if after.unplaced != slot and slot not in after.state.hands[view.seat]:
                self._claimed.add(slot)
        except SlotTaken:
            self._lost_race(cast(LieView, self.session.view()), slot)
            return
        except IllegalAction as error:
            self._refuse(error)
            return
        self.message = ""
        self.refresh_table()

    def action_place_first(self) -> None:
        """A card is taken and not placed: the next is taken only after it is (T3)."""
        self.app.bell()
        self.message = "✗ Place your new card first (← or →): then take the next (T3)."
        self.refresh_table()

    async def action_place(self, side: str) -> None:
        """T3: put the taken card, its front seen, at the `side` end of the hand."""
        view = self.current_view()
        if view is None or view.phase is not Phase.BUILD or view.unplaced is None:
            return
        if view.unplaced_face is None:
            self.app.bell()
            self.message = "Your new card's front is still on its way: place it once seen (T3)."
            self.refresh_table()
            return
        await self._send(Place(Side(side)))

    async def _send(self, action: Claim | Place | Play | Pass) -> None:
        """Send this seat's action; a refusal rings and says why (nothing changed), else the
        hint line clears."""
        try:
            await self.session.act(action)
        except IllegalAction as error:
            self._refuse(error)
            return
        self.message = ""
        self.refresh_table()

    def _refuse(self, error: IllegalAction) -> None:
        self.app.bell()
        self.message = f"✗ Not allowed: {error.reason}"
        self.refresh_table()

    def _lost_race(self, view: LieView, slot: int) -> None:
        """Someone else got the card first (T3): say who; nothing changed."""
        self.app.bell()
        state = view.state
        holder = next(
            (s for s, hand in enumerate(state.hands) if slot in hand or state.unplaced[s] == slot),
            None,
        )
        back = back_label(view.state.backs[slot], self.letters(view)) if slot in view.backs else ""
        who = self.names[holder] if holder is not None else "Someone"
        self.message = f"✗ {who} got that {back} first. Pick another card."
        self.refresh_table()

    async def on_lie_table_grid_clicked(self, message: LieTableGrid.Clicked) -> None:
        self.cursor = message.position
        self.message = ""
        await self.action_claim()

    # -- Phase 2 -----------------------------------------------------------------------------------
    def _colours(self, view: LieView) -> list[int]:
        return [DECK[face].colour if face >= 0 else -1 for face in view.hand_faces]

    def _run_ok(self, view: LieView, start: int, length: int) -> bool:
        colours = self._colours(view)
        if not 1 <= length <= 3 or start < 0 or start + length > len(colours):
            return False
        return len(set(colours[start : start + length])) == 1

    def _clamp_selection(self, view: LieView) -> None:
        count = len(view.state.hands[view.seat])
        self.sel_start = max(0, min(self.sel_start, count - 1))
        while self.sel_len > 1 and not self._run_ok(view, self.sel_start, self.sel_len):
            self.sel_len -= 1
        self.sel_len = max(1, self.sel_len)

    def _selected_slots(self, view: LieView) -> tuple[int, ...]:
        hand = view.state.hands[view.seat]
        return tuple(hand[self.sel_start : self.sel_start + self.sel_len])

    def _legal_plays(self, view: LieView) -> list[tuple[int, int]]:
        """Every legal play as (start index, length), left to right, shorter first."""
        index = {slot: i for i, slot in enumerate(view.state.hands[view.seat])}
        plays = [
            (index[action.slots[0]], len(action.slots))
            for action in legal_actions(view)
            if isinstance(action, Play)
        ]
        return sorted(plays)

    def _playable_indices(self, view: LieView) -> set[int]:
        return {start + k for start, length in self._legal_plays(view) for k in range(length)}

    def _select_first_legal(self, view: LieView) -> None:
        plays = self._legal_plays(view)
        if plays and (self.sel_start, self.sel_len) not in plays:
            self.sel_start, self.sel_len = plays[0]

    def _phase_2_view(self) -> LieView | None:
        view = self.current_view()
        if view is None or view.phase is not Phase.PLAY or not view.state.hands[view.seat]:
            return None
        return view

    def action_select(self, step: int) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        count = len(view.state.hands[view.seat])
        self.sel_start = (self.sel_start + step) % count
        self.message = ""
        self._clamp_selection(view)
        self.refresh_table()

    def action_grow(self, delta: int) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        length = self.sel_len + delta
        if self._run_ok(view, self.sel_start, length):
            self.sel_len = length
            self.message = ""
        elif delta > 0:
            self.message = "✗ A combination is 1-3 adjacent cards of one colour (T5)."
        self.refresh_table()

    def action_next_play(self) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        plays = self._legal_plays(view)
        if not plays:
            self.message = "No legal play: press p to pass."
        else:
            later = [play for play in plays if play > (self.sel_start, self.sel_len)]
            self.sel_start, self.sel_len = (later or plays)[0]
            self.message = ""
        self.refresh_table()

    async def on_lie_hand_view_clicked(self, message: LieHandView.Clicked) -> None:
        """Phase 1, a card to place: a click on the left half of the hand places it at the left
        end, on its right half (or on the new card) at the right end (T3). Phase 2: click a card
        to choose it; click a neighbour of the same colour to add it, a chosen card at either end
        to drop it."""
        building = self.current_view()
        if building is not None and building.phase is Phase.BUILD:
            if building.unplaced is not None:
                await self.action_place("right" if message.right_half else "left")
            return
        view = self._phase_2_view()
        if view is None or message.index >= len(view.state.hands[view.seat]):
            return
        index, start, stop = message.index, self.sel_start, self.sel_start + self.sel_len
        if start <= index < stop and self.sel_len > 1:
            if index == start:
                self.sel_start, self.sel_len = start + 1, self.sel_len - 1
            elif index == stop - 1:
                self.sel_len -= 1
            else:
                self.sel_start, self.sel_len = index, 1
        elif index == start - 1 and self._run_ok(view, index, self.sel_len + 1):
            self.sel_start, self.sel_len = index, self.sel_len + 1
        elif index == stop and self._run_ok(view, start, self.sel_len + 1):
            self.sel_len += 1
        else:
            self.sel_start, self.sel_len = index, 1
        self.message = ""
        self.refresh_table()

    async def action_play(self) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        action = Play(self._selected_slots(view))
        try:
            check_action(view, action)  # our own fronts first: never send a play they contradict
        except IllegalAction as error:
            self._refuse(error)
            return
        await self._send(action)

    async def action_pass_go(self) -> None:
        view = self._phase_2_view()
        if view is None:
            return
        await self._send(Pass())

    # -- always ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show each phase's keys only in that phase (the footer follows)."""
        view = self.current_view()
        phase = view.phase if view is not None else None
        if action in PHASE_1_ACTIONS:
            return phase is Phase.BUILD and view is not None and view.unplaced is None
        if action in PLACING_ACTIONS:
            return phase is Phase.BUILD and view is not None and view.unplaced is not None
        if action in PHASE_2_ACTIONS:
            return phase is Phase.PLAY
        if action == "new_game":
            return phase in (Phase.GAME_OVER, Phase.ABORTED)
        return True

    def action_scores(self) -> None:
        view = self.current_view()
        if view is None:
            return
        title = "Game over" if self.final is not None else "Scores so far"
        self._queue_scores(title)

    def action_help(self) -> None:
        self._queue_modal(lambda: HelpScreen("lie"))

    def action_new_game(self) -> None:
        view = self.current_view()
        if view is not None and view.state.over:
            self.post_message(NewGameRequested())

    def action_leave(self) -> None:
        self.leave_for_lobby()

    def on_resize(self, _event: Any) -> None:
        self.refresh_table()

    async def on_unmount(self) -> None:
        await self.session.close()


def table_busy(state: LieState) -> str | None:
    """What the table is doing for the engine (its first outstanding request), in words; None
    when it waits for nothing but the players."""
    for request in state.pending:
        if isinstance(request, Arrange):
            return "laying out the cards"
        if isinstance(request, NewGroupedDeck | GroupedReshuffle):
            return "shuffling the deck"
        if isinstance(request, Reveal):
            return "turning cards over"
    return None
