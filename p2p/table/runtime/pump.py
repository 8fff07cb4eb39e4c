"""The pump of a networked seat: what moves its table forward after anything happened.

After every envelope applied, forward received or action asked for, the seat's pump (once per
turn of the event loop) signs and sends what the table says this seat owes (its outbox: the
public envelopes through the log, a give-away's forward privately to its receiver), reports the
table's events, lets the seat's bot play (after its delay, or its claim pace where seats act at
once), and signs the step envelope a phase in steps needs of this seat now (`pace`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from fairdeal.engine.errors import IllegalAction
from fairdeal.p2p.deck import DeckFault
from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import PublicIdentity
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.transcript import TranscriptWriteError, mark_done
from fairdeal.p2p.table.core.api import Notice
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.forwards import sign_forward
from fairdeal.p2p.table.core.outbox import Private
from fairdeal.p2p.table.core.sealed import ForwardRelay, SealedForward, parse_sealed, seal_forward
from fairdeal.p2p.table.runtime.randomness import table_secret_name

if TYPE_CHECKING:
    from fairdeal.p2p.table.runtime.peer import TablePeer

log = logging.getLogger("fairdeal.table")


class Pump:
    """One seat's pump; `peer` holds the table, the log, the bot and the seat's files."""

    def __init__(self, peer: TablePeer) -> None:
        self.peer = peer
        self.scheduled = False
        self.thinking: asyncio.Task[None] | None = None  # the bot's delayed move, while it waits
        self._thinking_at_once = False  # whether that delay is a claim pace (seats act at once)
        # give-away forwards this seat signed, sealed and sent (resent whenever a seat connects)
        self.privates: list[SealedForward] = []
        self.relay = ForwardRelay(peer.seat)  # the others' sealed forwards this seat passes on

    def schedule(self) -> None:
        """Run the pump soon (once, however many times this is called before it runs)."""
        if not self.scheduled and not self.peer.closed:
            self.scheduled = True
            asyncio.get_running_loop().call_soon(self.run)

    def run(self, bot_due: bool = False) -> None:
        """Publish what this seat owes, report events, let the bot play (`bot_due`: its delay
        or claim pace has passed), and sign the step envelope the table needs now (`pace`)."""
        self.scheduled = False
        peer = self.peer
        table, sync = peer.table, peer.sync
        if table is None or sync is None or peer.closed:
            return
        if peer.recovery.recovering:  # report what the replay found, sign nothing yet
            peer.drain_table_events()
            if table.over:  # caught up to the end: nothing left to sign, so nobody to wait for
                self._finish()
            return
        while True:
            self.keep_forwards(table)
            if peer.closed:  # the disk refused the forwards: publish nothing after it
                return
            if not self.flush(table, sync):
                return  # the seat stopped (on_disk_failure): nothing is sent
            peer.drain_table_events()
            if peer.bot is not None and self._bot_may_choose(table, sync):
                at_once = table.simultaneous()
                waits = peer.bot_timing.waits(at_once)
                if waits and not (bot_due and self._thinking_at_once == at_once):
                    self._think(table, at_once)  # and meanwhile it still owes its steps
                else:
                    bot_due = False  # the next move of this seat waits its own delay
                    if self._bot_publish(table):
                        continue
            # another seat's envelope held here may start a step this seat must answer at once
            table.pace(sync.log.buffered)
            if table.outbox and not table.over:
                continue
            break
        if table.over:
            self._finish()

    def _finish(self) -> None:
        """The game is over here: mark the transcript done (rerunning the command starts a new
        table) and let whoever waits on the seat go on."""
        peer = self.peer
        if not peer.done.done():
            peer.timings.finished = time.monotonic()
            mark_done(peer.transcript_path)
            peer.done.set_result(None)

    def flush(self, table: TableDriver, sync: TableSync) -> bool:
        """Sign and send the table's outbox; False once the disk refused a write."""
        peer = self.peer
        choices = table.choice_kinds
        while table.outbox:
            item = table.outbox.pop(0)
            if isinstance(item, Private):
                forward = sign_forward(
                    peer.identity.sign,
                    peer.roster.table,
                    item.transfer,
                    item.slot,
                    item.body,
                    game=table.game_name,
                )
                sealed = seal_forward(
                    peer.identity, peer.seat, peer.roster, table.game_name, forward
                )
                self.privates.append(sealed)
                self.send_private(sealed)
            elif peer.recovery.signed_already(item.kind, item.body, choices):
                continue  # signed before a restart: in the log
            else:
                try:
                    envelope = sync.publish(item.kind, item.body)
                except TranscriptWriteError:
                    return False
                peer.recovery.last_prev = envelope.prev
                if item.claims is not None:
                    peer.timings.claims_signed[item.claims] = time.monotonic()
        return True

    def on_forward(self, sender_id: PublicIdentity, message: dict[str, Any]) -> None:
        """A give-away's sealed forward (protocol.md 10.8), from its giver or relayed: ours is
        opened and checked by the table before anything is kept (only a forward it used is
        written to the secrets file, `keep_forwards`); another seat's is passed on once."""
        peer = self.peer
        deliverer = peer.roster.seat_of(sender_id.key)
        table = peer.table
        if deliverer is None or message.get("table") != peer.roster.table or table is None:
            return  # a peer with no seat carries no forward
        culprit = f"seat {deliverer} ({sender_id})"
        sealed = parse_sealed(message, peer.roster, table.game_name, culprit)
        if sealed.to != peer.seat:
            if self.relay.take(sealed):
                self._send_to_seats(sealed, exclude={deliverer, sealed.giver})
            return
        try:
            table.receive_private(sealed.giver, sealed.open(peer.identity))
        except DeckFault as fault:
            raise PeerError(f"seat {fault.seat}", fault.what) from None
        self.schedule()

    def keep_forwards(self, table: TableDriver) -> None:
        """Write the forwards the table used to the secrets file before their receipts go out:
        a crash must not lose a card this seat was given."""
        if not table.kept_forwards:
            return
        peer = self.peer
        name = table_secret_name(peer.roster.table, "forwards")
        kept = [*peer.secrets.get(name, []), *(f.to_data() for f in table.kept_forwards)]
        try:
            peer.secrets.put(name, kept)
        except TranscriptWriteError as error:  # nothing is sent after a write that failed
            peer.on_disk_failure(error)
            return
        table.kept_forwards.clear()

    def send_private(self, sealed: SealedForward) -> None:
        """To every seat: the receiver opens it, the others pass it on (a link cut between
        giver and receiver stalls nobody)."""
        self._send_to_seats(sealed, exclude=set())

    def _send_to_seats(self, sealed: SealedForward, exclude: set[int]) -> None:
        peer = self.peer
        wire = sealed.to_wire(peer.roster.table)
        for seat, key in enumerate(peer.roster.keys):
            if seat != peer.seat and seat not in exclude:
                peer.mesh.send(key, wire)

    def resend_privates(self, seat: int | None) -> None:
        """A seat that (re)connects may have missed forwards: this seat's own go to it again
        (its receiver opens it, another seat passes on one it had not), and so does the newest
        forward passed on here for it. A copy already had is ignored."""
        if seat is None or seat == self.peer.seat:
            return
        key = self.peer.roster.keys[seat]
        for sealed in [*self.privates, *self.relay.kept_for(seat)]:
            if sealed.giver != seat:
                self.peer.mesh.send(key, sealed.to_wire(self.peer.roster.table))

    async def stop(self) -> None:
        """Drop a delayed bot move not made yet: it is never published."""
        thinking, self.thinking = self.thinking, None
        if thinking is not None:
            thinking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await thinking

    def _bot_may_choose(self, table: TableDriver, sync: TableSync) -> bool:
        """The bot chooses when the driver lets this seat choose; in turn, only once (its move
        not yet in the log), so a move signed and waiting is not made twice."""
        if table.over or not table.may_choose():
            return False
        seat = self.peer.seat
        return table.simultaneous() or not sync.log.holds(seat, sync.log.next_seq(seat))

    def _bot_publish(self, table: TableDriver) -> bool:
        """The bot's choice, checked like a player's by the driver; whether a move was kept.
        A refused one is replaced by a listed legal action the driver accepts, else the bot
        waits for the table to change (the pump runs again then): either way one notice line,
        so a faulty bot never stops the table nor prints a traceback."""
        peer = self.peer
        assert peer.bot is not None
        view = table.view()
        action = peer.bot.choose(view)
        try:
            table.publish_action(action, check=peer.check_own_actions)
            return True
        except IllegalAction as error:
            refused = error.reason
        said = f"✗ The move of seat {peer.seat}'s bot was refused ({refused})"
        for fallback in table.game.legal_actions(view):
            with contextlib.suppress(IllegalAction):
                table.publish_action(fallback)
                peer.emit(Notice(f"{said}; it played another"))
                return True
        peer.emit(Notice(f"{said}; it waits for the table to move on"))
        return False

    def _think(self, table: TableDriver, at_once: bool) -> None:
        """Let the bot move once its delay has passed (`at_once`: where seats act at once, its
        claim pace or a reaction time); meanwhile the loop keeps receiving and checking the
        others' messages."""
        if self.thinking is None:
            self._thinking_at_once = at_once
            delay = self.peer.bot_timing.delay(at_once, follow_up=at_once and table.follows_up())
            task = self._move_after_delay(delay)
            self.thinking = asyncio.get_running_loop().create_task(task)

    async def _move_after_delay(self, delay: float) -> None:
        await self.peer.bot_sleep(delay)
        self.thinking = None
        # The bot chooses now, from the table as it is now: if this seat may no longer choose
        # (or the move is already in the log) nothing is published.
        self.run(bot_due=True)
