"""Test-only cheating peers: table subclasses and bots that break one rule each.

None of this is reachable from production code: the honest table and bots stay untouched, and a
cheat is wired in by the test through `open_table(tables=...)` or a peer's `bot`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fairdeal.engine.bots import Bot
from fairdeal.engine.larry import Action, CardKind, LarryView, PlayFaceDown, PlayFaceUp, build_deck
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.lobby.roster import ROSTER_KIND
from fairdeal.p2p.table.driver import DECK, LarryTable, Publish


class WrongShareTable(LarryTable):
    """Publishes, in the first deal of the game, one decryption share that belongs to another
    card (a valid point with a proof for a different statement)."""

    cheated = False

    def _take_output(self, output: Output) -> None:
        super()._take_output(output)
        if self.cheated or self.state is None:
            return
        for index, item in enumerate(self.outbox):
            body = item.body if isinstance(item, Publish) and item.kind == DECK else None
            if body and body.get("kind") == SHARES and len(body["shares"]) >= 2:
                shares = [dict(s) for s in body["shares"]]
                shares[0]["share"] = shares[1]["share"]  # the share of the next card
                self.outbox[index] = Publish(DECK, {**body, "shares": shares})
                self.cheated = True
                return


class RefusingTable(LarryTable):
    """Refuses to open its cards when a reveal needs them: sends a refusal in their place."""

    refused = False

    def _take_output(self, output: Output) -> None:
        super()._take_output(output)
        service = self._service
        if self.refused or service is None or type(service.requests[0]).__name__ != "Reveal":
            return
        for index, item in enumerate(self.outbox):
            if isinstance(item, Publish) and item.kind == DECK and item.body["kind"] == SHARES:
                self.outbox[index] = Publish(DECK, {"kind": "deck.refuse", "seat": self.me})
                self.refused = True
                return


@dataclass
class WrappedBot:
    """A heuristic bot with one cheating move (`cheat` returns an action or None)."""

    inner: Bot
    name: str = "cheater"
    cheated: bool = False

    def choose(self, view: LarryView) -> Action:
        if not self.cheated:
            action = self.cheat(view)
            if action is not None:
                self.cheated = True
                return action
        return self.inner.choose(view)

    def cheat(self, view: LarryView) -> Action | None:
        raise NotImplementedError


class OverLimitBot(WrappedBot):
    """L6: announces a total above the limit."""

    def cheat(self, view: LarryView) -> Action | None:
        if view.state.phase != "play" or view.obligated[view.seat]:
            return None
        slot = view.hand[0][0]
        return PlayFaceDown(slot, view.state.limit + 1, larry=len(view.hand) == 2)


class ForeignSlotBot(WrappedBot):
    """Plays a card from another seat's hand."""

    def cheat(self, view: LarryView) -> Action | None:
        if view.state.phase != "play" or view.obligated[view.seat]:
            return None
        other = (view.seat + 1) % view.state.players
        slot = view.state.hands[other][0]
        return PlayFaceDown(slot, 0, larry=len(view.hand) == 2)


def _kinds(view: LarryView) -> list[tuple[int, CardKind]]:
    deck = build_deck(view.state.options)
    return [(slot, deck[face].kind) for slot, face in view.hand if face is not None]


class FakeNumberBot(WrappedBot):
    """L12: under the face-up obligation, plays an action card claiming it is a number card."""

    def cheat(self, view: LarryView) -> Action | None:
        if view.state.phase != "play" or not view.obligated[view.seat]:
            return None
        for slot, kind in _kinds(view):
            if kind not in (CardKind.NUMBER, CardKind.GLOAT):
                return PlayFaceUp(slot, CardKind.NUMBER, larry=len(view.hand) == 2)
        return None


@dataclass
class PlacerBot:
    """An honest bot that plays "play face-up" on `target` whenever it can (L12)."""

    inner: Bot
    target: int
    name: str = "placer"

    def choose(self, view: LarryView) -> Action:
        if view.state.phase == "play" and not view.obligated[view.seat]:
            for slot, kind in _kinds(view):
                if kind is CardKind.FACE_UP:
                    left = len(view.hand) - 1
                    return PlayFaceUp(slot, CardKind.FACE_UP, target=self.target, larry=left == 1)
        return self.inner.choose(view)


def cheat_body(action: Any) -> Any:
    from fairdeal.engine.larry.codec import to_data

    return to_data(action)


class ForgedRosterTable(LarryTable):
    """Seat 0 records the lobby's roster with seat 2's signature altered (protocol.md 5.5)."""

    def start(self) -> None:
        super().start()
        for index, item in enumerate(self.outbox):
            if isinstance(item, Publish) and item.kind == ROSTER_KIND:
                signatures = list(item.body["signatures"])
                signatures[2] = bytes([signatures[2][0] ^ 1]) + signatures[2][1:]
                self.outbox[index] = Publish(ROSTER_KIND, {**item.body, "signatures": signatures})
