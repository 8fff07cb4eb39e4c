"""The table: seats, limit, pile, your hand, the log, and the actions of a turn.

The screen keeps no game state: it redraws from `session.view()` on every `StateChanged`. A worker
follows `session.events()`; modal views (a doubt, scores, a fault) queue up and show one at a time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.screen import Screen

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
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.ui.background import reported
from fairdeal.ui.games.larry.announce import AnnounceDialog
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.key_checks import (
    face_down_action,
    face_up_action,
    honest_total,
    is_zero_play,
    larry_refusal,
    refusal,
)
from fairdeal.ui.games.larry.narrator import card_name, card_use
from fairdeal.ui.games.larry.table_core import LarryTableCore
from fairdeal.ui.games.larry.widgets.hand import HandView
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.messages import CardChosen
from fairdeal.ui.screens.help import HelpScreen
from fairdeal.ui.screens.pick import PickDialog
from fairdeal.ui.screens.presence import table_bindings
from fairdeal.ui.wording import seat_names

log = logging.getLogger("fairdeal.ui")

TARGETED = (CardKind.FACE_UP, CardKind.PICK_UP_2, CardKind.GIVE_AWAY_1)
DOUBT_LINGER_S = 3.0  # how long a doubt between other seats stays up once fully turned over


class TableScreen(LarryTableCore):
    """Larry's table: the core (table_core.py), drawn, with the actions of a turn."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "select(-1)", "Card", key_display="←→"),
        Binding("right", "select(1)", "Card", show=False),
        Binding("enter", "play_down", "Face-down"),
        Binding("u", "play_up", "Face-up"),
        Binding("d", "doubt", "Doubt"),
        Binding("a", "accept", "Let go"),
        Binding("l", "larry", "Larry!"),
        *table_bindings(show_new_game=False),  # the footer has no room to spare
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]

    def _queue_doubt(self, event: DoubtVerification) -> None:
        """Queue the doubt view; one between other seats closes by itself once it is all shown
        (when cards are turned over slowly, i.e. in the app), one involving us waits for a key."""
        if self._replaying:
            return  # resuming: the doubts of the game so far are in the log
        deck = self.session.view().deck
        said = event.said or self._pile_totals_shown  # a session that does not say: our record
        ours = self.plays_its_seat() and self.session.seat in (event.doubter, event.last_player)
        linger = None if ours or self.reveal_interval <= 0 else DOUBT_LINGER_S
        slow = self.reveal_interval > 0

        def make() -> Screen[None]:
            shown = self._doubt_shown if slow else None
            return DoubtScreen(
                event, self.session.seats, deck, self.reveal_interval, said, linger, shown
            )

        if slow:
            self._doubt_views += 1
        self.queue_modal(
            make,
            # other seats' doubt is in the log: it never covers our turn, nor outlives our move
            stale=None if ours else self._stale_when_we_play(also_on_our_turn=True),
            on_skip=self._doubt_shown if slow else None,  # its result waits in the log for it
        )

    # -- drawing ---------------------------------------------------------------------------------
    def hand_cards(self, view: LarryView) -> tuple[Card | None, ...]:
        deck = view.deck
        return tuple(deck[face] if face is not None else None for _, face in view.hand)

    async def refresh_table(self) -> None:
        """Draw from the session's current view: the panels follow what is assigned here.
        Everything but the hand is drawn before the first await, so overlapping refreshes (a
        table event and our own action) end in order."""
        view = self.frozen_view or self.current_view()
        if view is None:
            self.drawn_view = None
            self.hint = self.gathering_text()
            return
        cards = self.hand_cards(view)
        self.selected = max(0, min(self.selected, len(cards) - 1))
        seat_list = self.query_one(SeatList)
        seat_list.left, seat_list.offline = frozenset(self.left), self.offline
        seat_list.watchers = self.watchers
        self.drawn_seats = tuple(self.session.seats)
        self.drawn_view = view  # the seats, table and pile panels (bound in table_core.py)
        self._fit_top()  # a joined table learns its seats late; setup adds a status line
        self.hint = self.hint_text(view)  # the hint line follows (written only on a change)
        await self.query_one(HandView).show(cards, self.selected)

    def table_hint(self, view: LarryView) -> str:
        parts: list[str] = []
        presence = self.presence_hint()
        if self.message:
            parts.append(self.message)
        elif presence is not None:
            parts.append(presence)
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
        if cards and not self.message and not view.state.over:  # no card to play after the end
            card = cards[self.selected]
            what = card_name(card) if card is not None else "a card"
            use = card_use(card) if card is not None else ""
            use = f" — {use}" if use else ""
            parts.append(f"Card {self.selected + 1} of {len(cards)}: {what}{use}.")
        if self.larry_armed:
            parts.append("[LARRY! armed]")
        return " ".join(parts)

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
        """Send an action; an illegal one is explained, not raised, and so is any failure to
        send it (the table goes on: nothing was sent)."""
        try:
            await self.session.act(action)
        except IllegalAction as error:
            await self.refuse(error.reason)
            return False
        except Exception as error:  # a bug or a network failure must not take the app down
            log.exception("sending %s failed", action)
            self.app.bell()
            await self.say(f"✗ Could not play that: {error}")
            return False
        self.larry_armed = False
        self.message = ""
        self._actions_made += 1
        self.close_stale_modal()
        await self.refresh_table()
        return True

    async def refuse(self, reason: str) -> None:
        self.app.bell()
        await self.say(f"✗ Not allowed: {seat_names(reason, self.names)}")

    def _selected_card(self, view: LarryView) -> tuple[int, Card] | None:
        if not view.hand:
            return None
        slot, face = view.hand[self.selected]
        return (slot, view.deck[face]) if face is not None else None

    async def _playable_card(
        self, play: Callable[[LarryView, int, Card, bool], Action]
    ) -> tuple[LarryView, int, Card] | None:
        """The selected card if it is our turn and the engine allows `play` of it; else None,
        said why: refused on the key press, no dialog first (L11, L12, L15, L16)."""
        view = self.current_view()
        chosen = self._selected_card(view) if view is not None else None
        if view is None or not view.my_turn or chosen is None:
            await self.say("✗ It is not your turn.")
            return None
        slot, card = chosen
        reason = refusal(view, play(view, slot, card, self.larry_armed))
        if reason is not None:
            await self.refuse(reason)
            return None
        return view, slot, card

    @work(exclusive=True, group="dialog")
    @reported("Playing a card face down")
    async def action_play_down(self) -> None:
        chosen = await self._playable_card(face_down_action)
        if chosen is None:
            return
        view, slot, card = chosen
        honest = honest_total(view, card)
        announce = await self._ask(AnnounceDialog(card_name(card), honest, view.limit))
        if announce is not None:
            await self.act(PlayFaceDown(slot, announce, self.larry_armed))

    @work(exclusive=True, group="dialog")
    @reported("Playing a card face up")
    async def action_play_up(self) -> None:
        chosen = await self._playable_card(face_up_action)
        if chosen is None:
            return
        view, slot, card = chosen
        target = give = None
        if card.kind in TARGETED and not is_zero_play(view, card):
            others = [(n, s) for s, n in enumerate(self.names) if s != view.seat]
            if len(others) == 1:
                target = others[0][1]  # one opponent: nothing to ask
            else:
                question = f"Play {card_name(card)} against whom?"
                target = await self._ask(PickDialog(question, others))
                if target is None:
                    return
        if card.kind is CardKind.GIVE_AWAY_1 and target is not None:
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
        view = self.current_view()
        if not self.larry_armed and view is not None:
            reason = larry_refusal(view)
            if reason is not None:
                await self.refuse(reason)
                return
        self.larry_armed = not self.larry_armed
        self.message = ""
        await self.refresh_table()

    def action_scores(self) -> None:
        self._queue_scores(self.winners, asked=True)

    def action_help(self) -> None:
        self.queue_modal(lambda: HelpScreen("larry"))

    async def _ask(self, dialog: Screen[int | None]) -> int | None:
        """Open one of our dialogs and wait for its answer (bots wait for us meanwhile)."""
        self._busy = True
        try:
            return await self.app.push_screen_wait(dialog)
        finally:
            self._busy = False
            self.show_next_modal()
