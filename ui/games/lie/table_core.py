"""The Lie's table screen, its core: what it knows of the table, its layout, and the events it
follows (ui/games/lie/screen.py puts the parts together; the module's docstring there tells the
whole)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TypeAlias

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer

from fairdeal.engine.lie import (
    LieState,
    LieView,
    Phase,
)
from fairdeal.engine.lie import events as ev
from fairdeal.engine.lie.actions import Action
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.p2p.table.core.api import (
    CardsVerified,
    Notice,
    ProofStatus,
    SetupProgress,
    StateChanged,
    TableEnded,
    TableEvent,
    TableSession,
    combined_proof,
)
from fairdeal.ui.games.lie.narrator import claim_void_text, lie_event_text
from fairdeal.ui.games.lie.scores import LieScoresScreen, RoundResult
from fairdeal.ui.games.lie.widgets.cards import back_label, front_label, letters_for
from fairdeal.ui.games.lie.widgets.hand import LieHandView
from fairdeal.ui.games.lie.widgets.players import LiePlayersView
from fairdeal.ui.games.lie.widgets.table_grid import LieTableGrid
from fairdeal.ui.games.lie.widgets.trick import LieTrickView, TrickLine, TrickShown
from fairdeal.ui.screens.help import HelpScreen
from fairdeal.ui.screens.table import TableScreenBase
from fairdeal.ui.widgets.game_log import GameLog
from fairdeal.ui.widgets.text_line import TextLine

# The table as The Lie's screens see it: its views and actions are The Lie's.
LieSession: TypeAlias = "TableSession[LieView, Action]"

log = logging.getLogger("fairdeal.ui")

PHASE_1_ACTIONS = frozenset({"cursor", "claim"})  # with nothing to place
PLACING_ACTIONS = frozenset({"place", "place_first"})  # with a taken card to place (T3)
PHASE_2_ACTIONS = frozenset({"select", "grow", "next_play", "play", "pass_go"})
LOG_ROOM_IN_PHASE_1 = 26  # below this many rows Phase 1's log has no room for its frame

# The Lie's own setup phase: the fair deck draws the places of the cards on the table.
SETUP_WORDS = {"arrange": ("drawing where the cards lie", "the cards' places are drawn")}


class LieTableCore(TableScreenBase[LieView]):
    """The state, the widgets and the events of The Lie's table screen; drawing and keys are
    the parts built on it (drawing.py, screen.py)."""

    UNIT = "round"
    SETUP_WORDS = SETUP_WORDS
    FAULT_MARK = "✗ "

    session: LieSession
    status: var[str] = var("")  # the status line above the table: round, phase, whose go

    def __init__(self, session: LieSession) -> None:
        super().__init__(session)

    def init_table_state(self) -> None:
        """What the screen knows of the table, as before its first event (a replay stepping
        back starts it again on the same screen, ui/screens/replay.py)."""
        super().init_table_state()
        self.cursor = 0  # a table position (Phase 1)
        self.sel_start = 0  # the selection in the hand (Phase 2): start and length
        self.sel_len = 1
        self.trick: TrickShown | None = None  # the trick on display: current, or the last won
        self._new_trick: TrickShown | None = None  # the trick under way once one is won
        self.rounds: list[RoundResult] = []
        self.final: ev.GameOver | None = None
        self._last_state: LieState | None = None  # of the last StateChanged handled
        self._phase: Phase | None = None
        self._placing = False  # a taken card waits to be placed: the footer shows place keys
        self._was_my_turn = False
        self._readied_round = 0
        self._prize_lines: list[str] = []  # prizes turned over, logged once the round has ended
        self._round_ended = 0  # the last round whose end this screen has logged
        self.proofs: dict[int, ProofStatus] = {}  # slot -> the proof of its revealed front
        self._claimed: set[int] = set()  # our claims not yet settled (a networked table)
        self.prize_proofs: dict[int, ProofStatus] = {}  # seat -> its prizes' proof, at the end

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TextLine(id="lie-status").data_bind(text=LieTableCore.status)
        yield LieTableGrid(id="lie-grid")
        yield LiePlayersView(id="lie-players")
        yield LieHandView(id="lie-hand")
        yield TextLine(id="lie-hint").data_bind(text=LieTableCore.hint)
        with Horizontal(id="lie-middle"):
            yield LieTrickView(id="lie-trick")
            yield GameLog(id="lie-log")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.hint = "Setting up the table…"
        self.follow_table()

    # -- the view --------------------------------------------------------------------------------
    def letters(self, view: LieView) -> tuple[str, ...]:
        return letters_for(view.options.colour_names)

    # -- events ----------------------------------------------------------------------------------
    async def follow_state(self, event: StateChanged[LieState, ev.Event]) -> None:
        self._on_state_changed(event)

    async def follow_game_event(self, event: TableEvent) -> None:
        if isinstance(event, CardsVerified):
            self._on_cards_verified(event)

    def notice_text(self, event: Notice) -> str:
        view = self.current_view()
        if isinstance(event, ClaimVoid) and view is not None:  # names and the card's back
            return claim_void_text(event, self.names, view.backs, self.letters(view))
        return super().notice_text(event)

    # Seats keying, shuffling, arranging: on the status line (the hint before the first state)
    # until every seat is done, then a line in the log.
    def setup_is_play(self, event: SetupProgress) -> bool:
        """A claim's deal and a play's reveal are no setting up: the table is playing (the
        state says what it waits for)."""
        return self._have_state and event.phase in ("deal", "reveal")

    def setup_shown(self, event: SetupProgress) -> SetupProgress | None:
        return None if event.done >= event.total else event

    def setup_done_line(self, event: SetupProgress) -> str | None:
        if event.done < event.total:
            return None
        proofs = f" ({event.proofs_verified} proofs checked)" if event.proofs_verified else ""
        return f"Setup: every seat's {event.phase} is done{proofs}."

    def _on_cards_verified(self, event: CardsVerified) -> None:
        """Fronts the fair deck revealed, with their proofs: kept by slot for the trick and the
        hand to mark; a claim's front arriving and the prizes turned over are logged."""
        for card in event.cards:
            self.proofs[card.slot] = card.proof
        status = combined_proof(card.proof for card in event.cards)
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

    def result_so_far(self, event: TableEnded) -> str:
        """Points once the game was over (T10), else the prize cards won, unseen (T8)."""
        names = self.names
        if event.leaders:
            totals = ", ".join(f"{names[s]} {score}" for s, score in enumerate(event.scores))
            leaders = ", ".join(names[s] for s in event.leaders)
            winners = "winner" if len(event.leaders) == 1 else "winners"
            return f"points {totals}; {winners}: {leaders}"
        won = ", ".join(f"{names[s]} {count}" for s, count in enumerate(event.scores))
        return f"prize cards won {won} (unseen, so nobody leads: T8)"

    def queue_end_scores(self, event: TableEnded, title: str) -> None:
        self._queue_scores(title)

    async def redraw(self) -> None:
        self.refresh_table()

    def _on_state_changed(self, event: StateChanged[LieState, ev.Event]) -> None:
        self._have_state = True
        self.setup = None  # a setup step (keys, shuffle, layout) ends in the state it made
        self._last_state = event.state
        view = self.session.view()
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
        view = self.session.view()
        letters = self.letters(view)
        proofs = dict(self.prize_proofs)
        self.queue_modal(lambda: LieScoresScreen(seats, rounds, final, letters, title, proofs))

    def view_closed(self, screen: Screen[None] | None) -> None:
        super().view_closed(screen)
        self._maybe_ready()

    def _maybe_ready(self) -> None:
        """Let a table that holds its bots at the start of a round know the player can see it.

        Judged on the last state whose events this screen has handled, not the session's newest:
        our own last play of a round ends it before its score table is queued."""
        state = self._last_state
        if state is None or self.modals.is_open or state.phase is not Phase.BUILD:
            return
        if state.round_no > self._readied_round:
            self._readied_round = state.round_no
            self.session.round_seen(state.round_no)

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
        self.queue_modal(lambda: HelpScreen("lie"))

    def on_resize(self) -> None:
        self.refresh_table()

    # -- the parts built on this one -------------------------------------------------------------
    def refresh_table(self) -> None:
        """Draw the table from the session's view (drawing.py)."""
        raise NotImplementedError
