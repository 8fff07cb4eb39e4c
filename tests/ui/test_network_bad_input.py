"""Nothing a peer or the network sends takes the app down: garbage on the table's
port, malformed and forged messages over an authenticated channel, and finally a signed action
the codec refuses (an announcement of -100, outside L6's -99..limit). The app keeps running,
the table goes on where the input was harmless, and the bad action is a fault naming its seat."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairdeal.engine.larry import Doubt, IllegalAction, PlayFaceDown
from fairdeal.engine.larry.legal import check_action, legal_actions
from fairdeal.p2p.games.larry.table import ACT
from fairdeal.p2p.table.core.api import FaultDetected, StateChanged
from fairdeal.p2p.table.tools.session import NetworkedTable
from fairdeal.ui.widgets.game_log import GameLog

from .support import make_app, table_screen
from .test_leaving_app import WAIT_S, two_seats

pytestmark = pytest.mark.slow

RAW_JUNK = (
    b"\x00\x00\x00\x05hello",  # a frame that is no handshake
    b"\xff\xff\xff\xff",  # a length far above the cap
    b"GET / HTTP/1.0\r\n\r\n",
    b"\x00\x00",  # half a length prefix, then silence
)


def states(session: NetworkedTable) -> int:
    return sum(isinstance(e, StateChanged) for e in session.history.events)


async def play_one_legal_move(session: NetworkedTable) -> None:
    """A legal card play (a doubt only when nothing else is legal: its view would wait for a
    key in the app, and the seat to act depends on the joint coin)."""
    view = session.view()
    actions = legal_actions(view)
    for action in sorted(actions, key=lambda a: isinstance(a, Doubt)):
        try:
            check_action(view, action)
        except Exception:
            continue
        await session.act(action)
        return
    raise AssertionError("no legal move")


async def test_bad_input_from_the_network_never_takes_the_app_down(tmp_path: Path) -> None:
    async with two_seats(tmp_path) as (host, guest):
        app = make_app(host)  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert host.address is not None and guest.seated is not None and host.peer
            for junk in RAW_JUNK:  # 1. bytes from anyone, on the port the table listens on
                _, writer = await asyncio.open_connection(*host.address)
                writer.write(junk)
                await writer.drain()
                writer.close()
            table_id = host.peer.roster.table
            garbage = [  # 2. from a seated peer, over its authenticated channel
                {"t": "env", "d": "not bytes", "s": b""},
                {"t": "env", "d": b"\x93\x01\x02", "s": b"\x00" * 64},
                {"t": "left", "d": b"junk", "s": b"s" * 64},
                {"t": "left"},
                {"t": "fwd", "table": table_id, "m": {"kind": "deck.forward", "shares": [{}]}},
                {"t": "fwd", "table": table_id, "m": "nonsense"},
                {"t": "need", "table": table_id, "have": "everything"},
                {"t": "need", "table": b"other", "have": [2**63]},
                {"t": "no-such-message", "x": [1] * 1000},
            ]
            for message in garbage:
                guest.seated.mesh.send(host.identity.key, message)
            # The table goes on: the seat to act plays, and the other one sees it.
            before = states(host)
            mover = host if host.view().my_turn else guest
            # The crash: this number used to reach the wire (64-bit overflow).
            absurd = PlayFaceDown(mover.view().hand[0][0], -99999999999999999999)
            with pytest.raises(IllegalAction):
                await mover.act(absurd)
            await play_one_legal_move(mover)
            await host.wait_for(lambda: states(host) > before, WAIT_S)
            assert app.is_running and not app.failures
            assert not any(isinstance(e, FaultDetected) for e in host.history.events)
            # 3. the guest signs, on its turn, an announcement the codec refuses
            while not guest.view().my_turn:  # the host (the app's seat) plays until it is
                if host.view().my_turn:
                    await play_one_legal_move(host)
                await guest.wait_for(lambda: guest.view().my_turn or host.view().my_turn, WAIT_S)
            slot = guest.view().hand[0][0]
            assert guest.peer is not None and guest.peer.sync is not None
            body = {"type": "PlayFaceDown", "slot": slot, "announce": -100, "larry": False}
            guest.peer.sync.publish(ACT, body)
            await host.wait_for(
                lambda: any(isinstance(e, FaultDetected) for e in host.history.events), WAIT_S
            )
            fault = next(e for e in host.history.events if isinstance(e, FaultDetected))
            assert fault.seat == guest.seat and "announce" in fault.what + fault.evidence
            screen = table_screen(app)
            async with asyncio.timeout(WAIT_S):  # shown to the player, naming the seat
                while not any(
                    line.startswith("FAULT by Ben")
                    for line in screen.query_one(GameLog).lines_written
                ):
                    await pilot.pause()
            assert app.is_running and not app.failures
