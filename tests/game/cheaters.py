"""Test-only cheating peers: table subclasses and bots that break one rule each.

None of this is reachable from production code: the honest table and bots stay untouched, and a
cheat is wired in by the test through `open_table(tables=...)` or a peer's `bot`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fairdeal.engine.bots import Bot
from fairdeal.engine.larry import (
    Action,
    CardKind,
    LarryState,
    LarryView,
    PlayFaceDown,
    PlayFaceUp,
    Transfer,
    build_deck,
)
from fairdeal.p2p.deck.messages import COIN_REVEAL, FORWARD, SHARES, SHUFFLE
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.lobby.roster import ROSTER_KIND
from fairdeal.p2p.table.core.driver import DECK, Private, Publish
from fairdeal.p2p.table.core.forwards import SignedForward
from fairdeal.p2p.table.core.giveaways import GiveAways


class WrongShareTable(LarryTable):
    """Publishes, in the first deal of the game, one decryption share that belongs to another
    card (a valid point with a proof for a different statement)."""

    cheated = False

    def take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        super().take_output(output, transfer)
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


class TamperedShuffleTable(LarryTable):
    """Publishes its first shuffle with one bit of the proof's first response flipped: the deck is
    its honest shuffle, the proof no longer holds (the next seats prove on it before their
    checks are done, protocol.md 6)."""

    cheated = False

    def take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        super().take_output(output, transfer)
        if self.cheated:
            return
        for index, item in enumerate(self.outbox):
            body = item.body if isinstance(item, Publish) and item.kind == DECK else None
            if body and body.get("kind") == SHUFFLE:
                proof = dict(body["proof"])
                s1 = proof["s"][0]
                proof["s"] = [bytes([s1[0] ^ 1]) + s1[1:], *proof["s"][1:]]
                self.outbox[index] = Publish(DECK, {**body, "proof": proof})
                self.cheated = True
                return


class RefusingTable(LarryTable):
    """Refuses to open its cards when a reveal needs them: sends a refusal in their place."""

    refused = False

    def take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        super().take_output(output, transfer)
        service = self.service
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
class TargetingBot:
    """An honest bot that plays a card on `target` whenever `move` finds one it may play (L11,
    L12), and otherwise does what `inner` chooses."""

    inner: Bot
    target: int
    name: str = "targeting"

    def choose(self, view: LarryView) -> Action:
        if view.state.phase == "play" and not view.obligated[view.seat]:
            action = self.move(view)
            if action is not None:
                return action
        return self.inner.choose(view)

    def move(self, view: LarryView) -> Action | None:
        raise NotImplementedError


@dataclass
class PlacerBot(TargetingBot):
    """Plays "play face-up" on `target` whenever it can (L12)."""

    name: str = "placer"

    def move(self, view: LarryView) -> Action | None:
        for slot, kind in _kinds(view):
            if kind is CardKind.FACE_UP:
                return PlayFaceUp(
                    slot, CardKind.FACE_UP, target=self.target, larry=len(view.hand) == 2
                )
        return None


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


@dataclass
class GiverBot(TargetingBot):
    """Plays "give away 1" (L11) on `target` whenever it may."""

    name: str = "giver"

    def move(self, view: LarryView) -> Action | None:
        hand = view.hand
        if len(hand) < 3 or view.seat == self.target:
            return None
        for slot, kind in _kinds(view):
            if kind is CardKind.GIVE_AWAY_1:
                give = next(s for s, _ in hand if s != slot)
                return PlayFaceUp(
                    slot, CardKind.GIVE_AWAY_1, target=self.target, give=give, larry=False
                )
        return None


def bogus_forward(giver: int, to: int) -> dict[str, Any]:
    """A `deck.forward` with no shares: what a seat that gives nothing might send."""
    return {"kind": FORWARD, "seat": giver, "to": to, "shares": []}


class ForwardForgerTable(LarryTable):
    """A third seat that sends bogus forwards (signed by itself, as its peer signs every private
    message) to every other seat: before any gift, for every transfer id to come, and again for
    every gift it sees between two others, both in its own name and in the giver's."""

    forged = 0

    def start(self) -> None:
        super().start()
        for to in range(self.seats):
            if to != self.me:
                for transfer in range(64):
                    self._forge(to, transfer, transfer, self.me)

    def _begin(self, state: LarryState) -> None:
        super()._begin(state)
        request = state.pending[0]
        if isinstance(request, Transfer) and self.me not in (request.from_seat, request.to_seat):
            self._forge(request.to_seat, request.id, request.slot, self.me)
            self._forge(request.to_seat, request.id, request.slot, request.from_seat)

    def _forge(self, to: int, transfer: int, slot: int, giver: int) -> None:
        self.outbox.append(Private(to, bogus_forward(giver, to), transfer, slot))
        self.forged += 1


class FalseAccuserGifts(GiveAways):
    def receipt(
        self, request: Transfer, forward: SignedForward | None, fault: str | None
    ) -> dict[str, Any]:
        if forward is not None and fault is None:
            fault = "the shares do not open to a card"
        return super().receipt(request, forward, fault)


class FalseAccuserTable(LarryTable):
    """A receiver that reports a bad give-away after a perfectly good forward."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gifts = FalseAccuserGifts(self.gifts.terms, self.deck)


class BareAccuserGifts(GiveAways):
    def receipt(
        self, request: Transfer, forward: SignedForward | None, fault: str | None
    ) -> dict[str, Any]:
        return {"slot": request.slot, "fault": "the giver sent nothing"}


class BareAccuserTable(LarryTable):
    """A receiver that reports a bad give-away and shows no forward for it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gifts = BareAccuserGifts(self.gifts.terms, self.deck)


class BadForwardTable(LarryTable):
    """A giver whose forward carries a share with a spoiled proof (it signs what it sends)."""

    def take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        super().take_output(output, transfer)
        for index, item in enumerate(self.outbox):
            if isinstance(item, Private) and item.body["shares"]:
                shares = [dict(s) for s in item.body["shares"]]
                share = dict(shares[0]["share"])
                share["s"] = share["c"]  # a valid scalar, the wrong one
                shares[0] = {**shares[0], "share": share}
                self.outbox[index] = Private(
                    item.to, {**item.body, "shares": shares}, item.transfer, item.slot
                )


class WithholdingTable(LarryTable):
    """Commits to the first-player coin and never reveals it (the last revealer's abort)."""

    def take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        super().take_output(output, transfer)
        self.outbox = [
            item
            for item in self.outbox
            if not (isinstance(item, Publish) and item.kind == DECK)
            or item.body.get("kind") != COIN_REVEAL
        ]
