"""The table part: a reused table id never reuses a seat's randomness.

A seat's seed binds its own fresh contribution to the signed roster and its seat
(p2p.table.runtime.randomness), and a table id that already has secrets in the seat's file is
refused before the seat signs anything: a host that reuses an old id cannot make a guest whose
transcript is gone repeat its key, coin and permutations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.deck.messages import KEY
from fairdeal.p2p.lobby import machines
from fairdeal.p2p.log.transcript import SecretStore, load_transcript
from fairdeal.p2p.table.core.api import Notice
from fairdeal.p2p.table.core.driver import DECK
from fairdeal.p2p.table.runtime.randomness import (
    TableReused,
    check_new_table,
    seat_seed,
    table_secret_name,
)
from fairdeal.p2p.table.tools.session import join_table

from .loopback import loopback_settings, short_host
from .support import identity, make_peer, open_table

WAIT_S = 20.0
TABLE = bytes(range(16))


def test_the_seat_seed_binds_contribution_roster_and_seat() -> None:
    base = seat_seed(b"\x01" * 32, b"\xaa" * 32, 0)
    assert len(base) == 32
    assert seat_seed(b"\x02" * 32, b"\xaa" * 32, 0) != base
    assert seat_seed(b"\x01" * 32, b"\xab" * 32, 0) != base
    assert seat_seed(b"\x01" * 32, b"\xaa" * 32, 1) != base
    with pytest.raises(ValueError, match="32 bytes"):
        seat_seed(b"\x01" * 31, b"\xaa" * 32, 0)


def test_a_table_id_with_secrets_in_the_file_is_refused(tmp_path: Path) -> None:
    store = SecretStore(tmp_path / "secrets")
    check_new_table(store, TABLE)  # nothing kept yet: fine
    store.put(table_secret_name(TABLE, "forwards"), [])
    with pytest.raises(TableReused, match=TABLE.hex()):
        check_new_table(store, TABLE)
    check_new_table(store, bytes(16))  # another table: fine


async def test_the_same_contribution_at_another_roster_draws_another_key(
    tmp_path: Path,
) -> None:
    """The same table id and the same pinned contributions, but rosters that differ (the
    options every seat signed): each seat publishes another key, so nothing is repeated."""
    published = []
    for index, options in enumerate((LarryOptions(short_game=True), LarryOptions())):
        table = await open_table(2, tmp_path / str(index), options, bots=False)
        try:
            signed = load_transcript(table.transcript(0)).signed
            (key,) = [e.body for e in signed if e.kind == DECK and e.body["kind"] == KEY]
            published.append(key["Y"])
        finally:
            await table.close()
    assert published[0] != published[1]


async def test_a_peer_refuses_to_start_a_table_its_secrets_file_holds(tmp_path: Path) -> None:
    from fairdeal.p2p.log.tablelog import Roster
    from fairdeal.p2p.net.mesh import Mesh

    ids = [identity(0), identity(1)]
    roster = Roster(TABLE, tuple(i.key for i in ids))
    mesh = Mesh(ids[0])
    peer = make_peer(0, roster, mesh, tmp_path, LarryOptions(short_game=True))
    peer.secrets.put(table_secret_name(TABLE, "seed"), b"\x05" * 32)  # an old game's, no transcript
    with pytest.raises(TableReused, match="already played"):
        await peer.start()
    assert not peer.transcript_path.exists()  # nothing was written


async def test_a_guest_refuses_a_host_that_reuses_a_table_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guest_dir = tmp_path / "guest"
    SecretStore(guest_dir / "secrets").put(table_secret_name(TABLE, "seed"), b"\x09" * 32)
    monkeypatch.setattr(machines, "new_table_id", lambda *_: TABLE)  # the host reuses TABLE
    host = short_host(tmp_path / "host")
    await host.start()
    try:
        await host.wait_for(lambda: host.address is not None, WAIT_S)
        assert host.address is not None
        address, port = host.address
        guest = join_table(
            host=address, port=port, name="Guy", settings=loopback_settings(guest_dir)
        )
        await guest.start()
        texts = lambda: [e.text for e in guest.history.events if isinstance(e, Notice)]  # noqa: E731
        await guest.wait_for(lambda: any("Could not sit down" in t for t in texts()), WAIT_S)
        assert any("already played" in t and TABLE.hex() in t for t in texts()), texts()
        assert guest.peer is None and host.peer is None  # nobody sat, nothing was signed
        await guest.close()
    finally:
        await host.close()
