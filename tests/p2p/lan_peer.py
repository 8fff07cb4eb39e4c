"""A peer process for the namespace tests: it reports what it does as JSON lines on stdout.

    python tests/p2p/lan_peer.py advertise --table-id HEX --name NAME --port N
    python tests/p2p/lan_peer.py browse --table-id HEX
    python tests/p2p/lan_peer.py host --name NAME --seats 3 --envelopes 2 --transcripts DIR
    python tests/p2p/lan_peer.py guest --name NAME --envelopes 2 --transcripts DIR

`host` and `guest` play a whole table: the guests find the host's table by mDNS, join it over
the secure transport, take seats and mark ready; the host starts, every seat signs the roster,
the seats form a full mesh and each publishes envelopes into the signed table log (seat 0 first
publishes the signed roster), and each reports the log's head once it holds them all.

Discovery uses the default (every real interface), as a player's laptop would. The process runs
until SIGTERM, then withdraws what it advertised.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from pathlib import Path

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby.discovery import (
    TableAd,
    TableAdvertiser,
    TableBrowser,
    local_addresses,
    open_zeroconf,
)
from fairdeal.p2p.lobby.roster import ROSTER_KIND, RosterError, SignedRoster
from fairdeal.p2p.lobby.session import (
    HostedTable,
    JoinedTable,
    create_transcript,
    form_mesh,
    seat_addresses,
    start_table_log,
)
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Rejected, seat_order
from fairdeal.p2p.net.mesh import Mesh

STEP_TIMEOUT_S = 20.0


def report(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def until_terminated() -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()


async def advertise(args: argparse.Namespace) -> None:
    aiozc = open_zeroconf()
    ad = TableAd(
        table_id=args.table_id,
        name=args.name,
        game=args.game,
        seats_taken=1,
        seats_total=args.seats,
        host_fingerprint=args.fingerprint,
    )
    advertiser = TableAdvertiser(aiozc, ad, port=args.port, addresses=local_addresses())
    await advertiser.start()
    report("advertised", instance=advertiser.instance, addresses=local_addresses())
    await until_terminated()
    await advertiser.close()
    await aiozc.async_close()


async def browse(args: argparse.Namespace) -> None:
    aiozc = open_zeroconf()
    browser = TableBrowser(aiozc)
    await browser.start()
    report("browsing")
    table = await browser.wait_for(lambda t: t.ad.table_id == args.table_id, args.timeout)
    report("found", table=table.to_json())
    await until_terminated()
    await browser.close()
    await aiozc.async_close()


async def play(
    mesh: Mesh,
    signed: SignedRoster,
    addresses: dict[bytes, tuple[str, int]],
    args: argparse.Namespace,
) -> TableSync:
    """Full mesh, then each seat's envelopes into one log, in seat order, and a transcript."""
    envelopes = args.envelopes
    seats = list(range(len(signed.roster.seats)))
    applied: list[Envelope] = []

    def apply(envelope: Envelope) -> None:
        """The log opens with seat 0's record of the very roster every seat signed."""
        if not applied:
            if envelope.kind != ROSTER_KIND:
                raise Rejected("the log must open with the signed roster")
            try:
                signed.check_body(envelope.body, f"seat {envelope.seat}")
            except RosterError as error:
                raise Rejected(str(error)) from error
        applied.append(envelope)

    seat = signed.roster.seat_of(mesh.identity.key)
    assert seat is not None
    transcript = create_transcript(Path(args.transcripts) / f"seat{seat}", signed, seat)
    sync = start_table_log(mesh, signed, seat_order(seats), apply, transcript)
    seat = sync.seat
    await form_mesh(mesh, signed, addresses, STEP_TIMEOUT_S)
    report("meshed", seat=seat, peers=len(mesh.peers))
    for number in range(envelopes):
        if seat == 0 and number == 0:
            sync.publish(ROSTER_KIND, signed.to_body())
        else:
            sync.publish("hello", {"seat": seat, "number": number})
    await sync.wait_for_length(envelopes * len(seats), STEP_TIMEOUT_S)
    transcript.close()
    report(
        "log",
        seat=seat,
        head=sync.log.head.hex(),
        entries=[[entry.seat, entry.kind] for entry in sync.log.entries],
        faults=len(sync.log.faults),
    )
    return sync


async def host(args: argparse.Namespace) -> None:
    aiozc = open_zeroconf()
    identity = Identity.generate("host")
    table = HostedTable(
        identity, aiozc, args.name, "larry", {"hands": 1}, args.seats, local_addresses()
    )
    await table.open()
    lobby = table.lobby
    assert lobby is not None
    report("hosting", table_id=lobby.table_id.hex(), fingerprint=identity.fingerprint)
    await table.wait_until(lambda: lobby.can_start, STEP_TIMEOUT_S)
    signed = await table.start(STEP_TIMEOUT_S)
    report("started", digest=signed.roster.digest.hex())
    await play(table.mesh, signed, seat_addresses(lobby), args)
    await until_terminated()
    await table.close()
    await aiozc.async_close()


async def guest(args: argparse.Namespace) -> None:
    aiozc = open_zeroconf()
    browser = TableBrowser(aiozc)
    await browser.start()
    found = await browser.wait_for(lambda t: t.ad.name == args.name, STEP_TIMEOUT_S)
    report("found", table=found.to_json())
    await browser.close()
    table = JoinedTable(Identity.generate(f"guest-{local_addresses()[0]}"))
    await table.join(found, STEP_TIMEOUT_S)
    seat = await table.take_seat(timeout=STEP_TIMEOUT_S)
    await table.set_ready(timeout=STEP_TIMEOUT_S)
    report("seated", seat=seat)
    signed = await table.wait_started(STEP_TIMEOUT_S)
    report("started", digest=signed.roster.digest.hex())
    assert table.lobby is not None
    await play(table.mesh, signed, seat_addresses(table.lobby), args)
    await until_terminated()
    await table.close()
    await aiozc.async_close()


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    advertise_parser = sub.add_parser("advertise")
    advertise_parser.add_argument("--table-id", required=True)
    advertise_parser.add_argument("--name", default="LAN table")
    advertise_parser.add_argument("--game", default="larry")
    advertise_parser.add_argument("--seats", type=int, default=3)
    advertise_parser.add_argument("--fingerprint", default="0123456789abcdef")
    advertise_parser.add_argument("--port", type=int, default=47000)
    browse_parser = sub.add_parser("browse")
    browse_parser.add_argument("--table-id", required=True)
    browse_parser.add_argument("--timeout", type=float, default=15.0)
    host_parser = sub.add_parser("host")
    host_parser.add_argument("--name", required=True)
    host_parser.add_argument("--seats", type=int, default=3)
    host_parser.add_argument("--envelopes", type=int, default=2)
    host_parser.add_argument("--transcripts", required=True)
    guest_parser = sub.add_parser("guest")
    guest_parser.add_argument("--name", required=True)
    guest_parser.add_argument("--envelopes", type=int, default=2)
    guest_parser.add_argument("--transcripts", required=True)
    args = parser.parse_args()
    modes = {"advertise": advertise, "browse": browse, "host": host, "guest": guest}
    asyncio.run(modes[args.mode](args))


if __name__ == "__main__":
    main()
