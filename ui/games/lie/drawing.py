"""The Lie's table screen, drawn: the status line, the table, the hand, the trick and the hint,
all from `session.view()` (the screen keeps no game state of its own)."""

from __future__ import annotations

from fairdeal.engine.lie import (
    IllegalAction,
    LieState,
    LieView,
    Phase,
    Play,
    check_action,
    fronts_behind,
)
from fairdeal.engine.lie.cards import DECK
from fairdeal.engine.requests import Arrange, GroupedReshuffle, NewGroupedDeck, Reveal
from fairdeal.ui.games.lie.choosing import (
    legal_plays,
    nearest_card,
    playable_indices,
    run_ok,
)
from fairdeal.ui.games.lie.table_core import (
    LOG_ROOM_IN_PHASE_1,
    SETUP_WORDS,
    LieTableCore,
)
from fairdeal.ui.games.lie.widgets.cards import back_label, front_label
from fairdeal.ui.games.lie.widgets.hand import LieHandView
from fairdeal.ui.games.lie.widgets.players import LiePlayersView
from fairdeal.ui.games.lie.widgets.table_grid import LieTableGrid
from fairdeal.ui.games.lie.widgets.trick import LieTrickView
from fairdeal.ui.widgets.game_log import GameLog
from fairdeal.ui.widgets.setup_progress import setup_text


class LieTableDrawing(LieTableCore):
    """The Lie's table screen's drawing part, and what a key may choose in the
    view it draws (the cursor's nearest card, Phase 2's legal selections)."""

    # -- what can be chosen (choosing.py) ---------------------------------------------------------
    def _clamp_selection(self, view: LieView) -> None:
        count = len(view.state.hands[view.seat])
        self.sel_start = max(0, min(self.sel_start, count - 1))
        while self.sel_len > 1 and not run_ok(view, self.sel_start, self.sel_len):
            self.sel_len -= 1
        self.sel_len = max(1, self.sel_len)

    def _selected_slots(self, view: LieView) -> tuple[int, ...]:
        hand = view.state.hands[view.seat]
        return tuple(hand[self.sel_start : self.sel_start + self.sel_len])

    def _select_first_legal(self, view: LieView) -> None:
        plays = legal_plays(view)
        if plays and (self.sel_start, self.sel_len) not in plays:
            self.sel_start, self.sel_len = plays[0]

    def _phase_2_view(self) -> LieView | None:
        view = self.current_view()
        if view is None or view.phase is not Phase.PLAY or not view.state.hands[view.seat]:
            return None
        return view

    # -- drawing ---------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        """Assign what each widget shows (they draw themselves when it changes)."""
        view = self.current_view()
        if view is None:
            self.hint = self.gathering_text()
            return
        state = view.state
        letters = self.letters(view)
        building = state.phase is Phase.BUILD
        grid, trick_view, hand = (
            self.query_one(LieTableGrid),
            self.query_one(LieTrickView),
            self.query_one(LieHandView),
        )
        grid.display, trick_view.display = building, not building
        # Phase 1 on a short terminal: the log keeps its rows, with only a top rule for a frame
        self.query_one(GameLog).set_class(
            building and self.size.height < LOG_ROOM_IN_PHASE_1, "-compact"
        )
        self.status = self.status_text(view)
        seats = self.session.seats
        watching = not self.plays_its_seat()  # a watcher's screen: that seat's hand, not "your"
        players = self.query_one(LiePlayersView)
        players.seats, players.watchers, players.watching = tuple(seats), self.watchers, watching
        players.marks = {seat: self.seat_marks(seat) for seat in range(len(seats))}
        players.view = view
        hand.cards = cards = tuple(
            (face, state.backs[slot])
            for slot, face in zip(state.hands[view.seat], view.hand_faces, strict=True)
        )
        hand.letters = letters
        whose = f"{self.names[view.seat]}'s" if watching else "Your"
        if building:
            self.cursor = nearest_card(view, self.cursor)
            grid.layout_slots, grid.on_table = state.layout, frozenset(state.table)
            grid.backs, grid.letters, grid.cursor = state.backs, letters, self.cursor
            taken = view.unplaced  # T3: the card taken, beside the hand until it is placed
            face = view.unplaced_face if taken is not None else None
            new_card = None if taken is None else (-1 if face is None else face, state.backs[taken])
            hand.styles.height = 4  # no choices to mark while grabbing
            hand.selected, hand.playable, hand.new_card = range(0), (), new_card
            hand.border_title = self._building_title(view, whose, cards, watching)
        else:
            my_turn = view.my_turn
            if my_turn and not self._was_my_turn:
                self._select_first_legal(view)
            self._was_my_turn = my_turn
            self._clamp_selection(view)
            selected = range(self.sel_start, self.sel_start + self.sel_len) if cards else range(0)
            hand.styles.height = 5
            hand.selected = selected if my_turn else range(0)
            hand.playable = playable_indices(view) if my_turn else ()
            hand.new_card, hand.border_title = None, f"{whose} hand"
            trick_view.names, trick_view.letters = tuple(self.names), letters
            trick_view.colour_names = view.options.colour_names
            trick_view.proofs = dict(self.proofs)
            trick_view.waiting_for, trick_view.trick = state.to_act(), self.trick
        self.hint = self.hint_text(view)
        self._maybe_ready()

    def _building_title(
        self, view: LieView, whose: str, cards: tuple[tuple[int, int], ...], watching: bool
    ) -> str:
        """Phase 1's hand title: the count, the card taken (T3), the fronts and claims on their
        way (a networked table)."""
        size, count = view.state.options.hand_size, len(cards)
        title = f"{whose} hand {count}/{size}: fronts, backs below"
        if view.unplaced is not None:
            title = f"{whose} hand {count}/{size} and your new card: ← or → places it"
            if watching:
                title = f"{whose} hand {count}/{size} and the card it took"
        arriving = sum(face < 0 for face, _ in cards)
        if arriving:  # a networked table: the others' shares for these are on their way
            title += f" · {arriving} front(s) on the way ··"
        if view.pending_claims:  # a networked table: these races are not decided yet (T3)
            title += f" · {len(view.pending_claims)} claim(s) settling"
        return title

    def status_text(self, view: LieView) -> str:
        state = view.state
        head = f"The Lie · round {state.round_no} of {state.options.rounds}"
        if self.fault is not None:
            return f"{head} · ✗ stopped: FAULT by {self.names[self.fault.seat]}"
        if self.setup is not None:  # between rounds: the seats reshuffle and lay out (T9)
            return f"{head} · setting up: {setup_text(self.setup, self.session.seats, SETUP_WORDS)}"
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

    def table_hint(self, view: LieView) -> str:
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
        plays = legal_plays(view)
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
