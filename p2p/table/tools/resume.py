"""Where a seat left a networked table: everything needed to sit down there again after a crash.

`resume_point` reads a transcript's header (the roster every seat signed in the lobby, our seat,
the options, where each seat listens) and checks, before anything is opened, that this data
directory holds the seat's identity and secrets and that the game is not over. The restart itself
is `TablePeer`'s own (it replays the transcript from the same seed);
`fairdeal.p2p.table.tools.session .resume_table` wires it to a fresh mesh.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairdeal.p2p.errors import IdentityFileError, P2PError
from fairdeal.p2p.identity import Identity, load_identity
from fairdeal.p2p.lobby.messages import parse_signed_roster_record
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.transcript import (
    SecretStore,
    TranscriptError,
    TranscriptVersionError,
    load_transcript,
)
from fairdeal.p2p.table.core.games import table_class
from fairdeal.p2p.table.runtime.randomness import table_secret_name
from fairdeal.p2p.table.tools.audit import audit_transcript

Address = tuple[str, int] | None


class CannotResume(P2PError):
    """The transcript cannot be resumed here; the message names the file and the reason."""


@dataclass(frozen=True)
class ResumePoint:
    transcript: Path
    identity: Identity
    signed: SignedRoster
    seat: int
    options: Any  # the game's (LarryOptions, LieOptions), as the roster signed them
    addresses: list[Address]  # where each seat listened when the table started (None: unknown)


def resume_point(transcript: Path, data: Path) -> ResumePoint:
    """Read and check `transcript` for a restart with the identity and secrets in `data`."""
    if not transcript.is_file():
        raise CannotResume(f"{transcript}: no such transcript file")
    try:
        contents = load_transcript(transcript)
    except TranscriptVersionError as error:  # not damaged: made by another protocol version
        raise CannotResume(str(error)) from None
    except TranscriptError as error:  # its message names the file
        raise CannotResume(f"damaged transcript: {error}") from None
    except OSError as error:
        raise CannotResume(f"cannot read {transcript}: {error}") from None
    record = contents.extra.get("signed_roster")
    if record is None:
        raise CannotResume(f"{transcript}: no signed roster (not a table started in a lobby)")
    try:
        signed = parse_signed_roster_record(record, str(transcript))
    except P2PError as error:
        raise CannotResume(f"{transcript}: damaged signed roster: {error}") from None
    keys = signed.roster.keys
    if signed.roster.table_id != contents.roster.table or keys != contents.roster.keys:
        raise CannotResume(f"{transcript}: the signed roster is not this table's")
    seat = contents.seat
    identity = _identity(data)
    if not 0 <= seat < len(keys) or keys[seat] != identity.key:
        raise CannotResume(
            f"{transcript} is seat {seat}'s transcript, but {data} holds the identity of "
            f"{identity.name} ({identity.code}), not that seat's"
        )
    _check_secrets(transcript, data, contents.roster.table)
    for path in (transcript, transcript.parent, data / "secrets"):
        if not os.access(path, os.W_OK):  # the seat must go on writing: say so now
            raise CannotResume(
                f"{path} is not writable (a read-only data directory?): the seat cannot go on "
                "recording the game; make it writable or copy the data directory elsewhere"
            )
    try:
        options = table_class(signed.roster.game).options_from_lobby(dict(signed.roster.options))
    except ValueError as error:
        raise CannotResume(f"{transcript}: the signed roster's game: {error}") from None
    report = audit_transcript(transcript)
    if not report.verified:
        raise CannotResume(f"{transcript} does not verify: {report.fault}")
    if report.over:
        raise CannotResume(f"{transcript}: that game is finished ({report.result_text()})")
    return ResumePoint(
        transcript,
        identity,
        signed,
        seat,
        options,
        _addresses(contents.extra.get("addresses"), len(keys)),
    )


def _identity(data: Path) -> Identity:
    try:
        return load_identity(data)
    except FileNotFoundError:
        raise CannotResume(f"no identity in {data} (use --data-dir)") from None
    except (IdentityFileError, OSError) as error:
        raise CannotResume(str(error)) from None


def _check_secrets(transcript: Path, data: Path, table: bytes) -> None:
    """The seat's randomness seed (p2p.table.runtime.randomness, kept by TablePeer) must be there:
    without it the replay cannot regain this seat's secrets."""
    path = data / "secrets"
    if not path.is_file():
        raise CannotResume(f"{transcript}: secrets file {path} is missing")
    try:
        store = SecretStore(path)
    except TranscriptError as error:
        raise CannotResume(str(error)) from None
    if table_secret_name(table, "seed") not in store:
        raise CannotResume(f"{transcript}: {path} holds no secrets for this table")


def _addresses(recorded: Any, seats: int) -> list[Address]:
    """The header's seat addresses; anything missing or malformed counts as unknown."""
    if not isinstance(recorded, list) or len(recorded) != seats:
        return [None] * seats
    addresses: list[Address] = []
    for item in recorded:
        if (
            isinstance(item, list | tuple)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], int)
        ):
            addresses.append((item[0], item[1]))
        else:
            addresses.append(None)
    return addresses
