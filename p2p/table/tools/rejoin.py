"""Taking a seat back by running the same command again: this identity's unfinished table in a
data directory (README "Headless peers").

A seat's transcript lives in DATA/tables/TABLE.transcript. When its game ends the peer leaves
`TABLE.transcript.done` beside it, so that finding the unfinished one reads only the headers of
the others. `unfinished_table` picks the newest unfinished transcript of this identity that
matches what the command was asked for (seat 0 for `host`, the host's address for `bot --peer`,
a table id), checks it with `resume_point` (identity, secrets, a verified log, not over), and
`resume_seated` listens where that seat listened so that the others' redialling finds it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import TranscriptError, done_marker, mark_done, read_header
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.runtime.gather import Seated
from fairdeal.p2p.table.runtime.left_file import ended_reason, read_left
from fairdeal.p2p.table.tools.resume import CannotResume, ResumePoint, resume_point

log = logging.getLogger("fairdeal.table")


def unfinished_table(
    data: Path,
    identity: Identity,
    *,
    seat: int | None = None,
    host: tuple[str, int] | None = None,
    table: bytes | None = None,
    on_purpose: bool = False,
) -> ResumePoint | None:
    """The newest unfinished table of `identity` in `data` that matches; None if there is none.
    A table that was left is not taken back by itself (`why_not_taken_back`), but `on_purpose`
    (`fairdeal resume`, and with it the local bots of the seat it takes back) takes it.
    Raises CannotResume when the matching transcript cannot be resumed (damaged, no secrets):
    joining a new table instead would abandon that seat without a word."""
    tables = data / "tables"
    if not tables.is_dir():
        return None
    candidates = sorted(
        (p for p in tables.glob("*.transcript") if not done_marker(p).exists()),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for path in candidates:
        try:
            roster, own, extra = read_header(path)
        except (TranscriptError, OSError) as error:
            raise CannotResume(f"an unfinished table here is damaged: {error}") from None
        if roster.keys[own] != identity.key or (seat is not None and own != seat):
            continue
        if table is not None and roster.table != table:
            continue
        if host is not None and not _first_address_is(extra.get("addresses"), host):
            continue
        gone = None if on_purpose else why_not_taken_back(path, roster)
        if gone is not None:  # it cannot go on by itself; `fairdeal resume` takes it on purpose
            log.info("not taking back %s: %s", path.name, gone)
            continue
        try:
            return resume_point(path, data)
        except CannotResume as error:
            if "that game is finished" in str(error):
                mark_done(path)
                continue
            raise
    return None


def why_not_taken_back(path: Path, roster: Roster) -> str | None:
    """Why the table of `path` is not taken back by running the same command again: this seat
    left or ended it, or another seat left it (it waits for that seat for ever); None: it may."""
    own = ended_reason(path)
    if own is not None:
        return f"this seat left it ({own})"
    for message in read_left(path, roster):
        return f"seat {message.seat} left it ({message.reason})"
    return None


def leaving_state(path: Path) -> list[str]:
    """What the `left` messages kept beside `path` say, in words, for `fairdeal resume`."""
    try:
        roster, own, _extra = read_header(path)
    except (TranscriptError, OSError):
        return []
    said = []
    if (reason := ended_reason(path)) is not None:
        said.append(f"you left this table ({reason}); resuming takes your seat back")
    for message in read_left(path, roster):
        if message.seat != own:
            said.append(f"seat {message.seat} left this table ({message.reason})")
    return said


def _first_address_is(addresses: object, host: tuple[str, int]) -> bool:
    if not isinstance(addresses, list) or not addresses:
        return False
    first = addresses[0]
    return isinstance(first, list | tuple) and tuple(first) == host


async def resume_seated(point: ResumePoint, bind: str) -> Seated:
    """The seat of `point` at its table again: a mesh listening where the seat listened (the
    others redial it there), else anywhere (our own redialling still reaches them)."""
    keys = set(point.signed.roster.keys)
    mesh = Mesh(point.identity, accept_peer=lambda peer: peer.key in keys)
    own = point.addresses[point.seat]
    try:
        await mesh.start(bind, own[1] if own is not None else 0)
    except OSError as error:
        log.info("cannot listen on port %s again (%s)", own, error)
        await mesh.start(bind, 0)
    log.info("resuming seat %s from %s", point.seat, point.transcript)
    return Seated(point.signed, point.seat, point.options, mesh, point.addresses)
