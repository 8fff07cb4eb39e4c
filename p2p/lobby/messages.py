"""The lobby's messages (protocol.md section 5): frozen dataclasses and their wire maps.

Each message travels over a secure channel as a msgpack map whose "t" names its kind; the sender's
identity is the channel's authenticated peer key, so no message carries its own author.
`decode_lobby_message` checks every field's type and bounds and raises `LobbyMessageError`
naming the culprit; fields it does not know are ignored (section 8).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import MAX_NAME_LENGTH, PUBLIC_KEY_SIZE, SIGNATURE_SIZE, PublicIdentity
from fairdeal.p2p.lobby.roster import TABLE_ID_SIZE, OptionValue, Roster, RosterError, SignedRoster
from fairdeal.p2p.net import kinds

MAX_SEATS = 8
MAX_OPTIONS = 16
MAX_OPTION_NAME = 32
MAX_OPTION_TEXT = 64
MAX_REASON = 200
MAX_GAME_ID = 16
DIGEST_SIZE = 32
PHASES = ("open", "starting")


class LobbyMessageError(PeerError):
    """A lobby message that does not parse; nothing changes because of it."""

    code = "bad-lobby-message"


# -- guest -> host -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TakeSeat:
    """Sit down (at `seat`, or the lowest free seat when None); `port` is our mesh listener."""

    seat: int | None
    port: int


@dataclass(frozen=True)
class LeaveSeat:
    pass


@dataclass(frozen=True)
class SetReady:
    """Ready (or not) to play with the options whose `options_digest` this is."""

    ready: bool
    options_digest: bytes


@dataclass(frozen=True)
class SignRoster:
    """My signature of the roster whose digest is `digest`."""

    digest: bytes
    signature: bytes


# -- host -> guests ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    identity: PublicIdentity
    ready: bool
    host: str  # where this seat's mesh listens, for the full mesh after the start
    port: int


@dataclass(frozen=True)
class LobbyState:
    """The host's whole lobby, sent on every change; `seats[i]` is None while seat i is free."""

    table_id: bytes
    game: str
    options: tuple[tuple[str, OptionValue], ...]
    seats: tuple[SeatView | None, ...]
    phase: str

    @property
    def seats_taken(self) -> int:
        return sum(seat is not None for seat in self.seats)

    @property
    def options_dict(self) -> dict[str, OptionValue]:
        return dict(self.options)

    def seat_of(self, key: bytes) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.identity.key == key:
                return index
        return None


@dataclass(frozen=True)
class SeatRefused:
    seat: int | None
    reason: str


@dataclass(frozen=True)
class StartTable:
    """The host fixes the roster; every seat answers with `SignRoster`."""

    roster: Roster


@dataclass(frozen=True)
class TableStarted:
    """Every seat's roster signature, in seat order: the game may begin."""

    digest: bytes
    signatures: tuple[bytes, ...]


@dataclass(frozen=True)
class TableClosed:
    reason: str


GuestMessage = TakeSeat | LeaveSeat | SetReady | SignRoster
HostMessage = LobbyState | SeatRefused | StartTable | TableStarted | TableClosed
LobbyMessage = GuestMessage | HostMessage

KINDS: dict[type, str] = {
    TakeSeat: kinds.LOBBY_TAKE,
    LeaveSeat: kinds.LOBBY_LEAVE,
    SetReady: kinds.LOBBY_READY,
    SignRoster: kinds.LOBBY_SIGN,
    LobbyState: kinds.LOBBY_STATE,
    SeatRefused: kinds.LOBBY_REFUSED,
    StartTable: kinds.LOBBY_START,
    TableStarted: kinds.LOBBY_STARTED,
    TableClosed: kinds.LOBBY_CLOSED,
}
GUEST_KINDS = frozenset(KINDS[kind] for kind in (TakeSeat, LeaveSeat, SetReady, SignRoster))
HOST_KINDS = frozenset(KINDS.values()) - GUEST_KINDS


# -- encoding ----------------------------------------------------------------------------------


def _identity_wire(identity: PublicIdentity) -> dict[str, Any]:
    return {"key": identity.key, "name": identity.name}


def _roster_wire(roster: Roster) -> dict[str, Any]:
    return {
        "table_id": roster.table_id,
        "game": roster.game,
        "options": dict(roster.options),
        "seats": [_identity_wire(seat) for seat in roster.seats],
    }


def encode_lobby_message(message: LobbyMessage) -> dict[str, Any]:
    """The wire map of `message`, ready for `Mesh.send` / `SecureChannel.send`."""
    body: dict[str, Any]
    match message:
        case TakeSeat(seat, port):
            body = {"seat": seat, "port": port}
        case LeaveSeat():
            body = {}
        case SetReady(ready, digest):
            body = {"ready": ready, "options_digest": digest}
        case SignRoster(digest, signature):
            body = {"digest": digest, "signature": signature}
        case LobbyState(table_id, game, options, seats, phase):
            body = {
                "table_id": table_id,
                "game": game,
                "options": dict(options),
                "phase": phase,
                "seats": [
                    None
                    if seat is None
                    else _identity_wire(seat.identity)
                    | {"ready": seat.ready, "host": seat.host, "port": seat.port}
                    for seat in seats
                ],
            }
        case SeatRefused(seat, reason):
            body = {"seat": seat, "reason": reason}
        case StartTable(roster):
            body = {"roster": _roster_wire(roster)}
        case TableStarted(digest, signatures):
            body = {"digest": digest, "signatures": list(signatures)}
        case TableClosed(reason):
            body = {"reason": reason}
    return {"t": KINDS[type(message)], **body}


# -- decoding ----------------------------------------------------------------------------------


class _Fields:
    """Typed, bounded access to one wire map; every failure names the culprit."""

    def __init__(self, culprit: str, kind: str, fields: Any) -> None:
        self.culprit = culprit
        self.kind = kind
        if not isinstance(fields, Mapping):
            self.fail("is not a map")
        self.fields = fields

    def fail(self, problem: str) -> NoReturn:
        raise LobbyMessageError(self.culprit, f"{self.kind}: {problem}")

    def get(self, name: str) -> Any:
        if name not in self.fields:
            self.fail(f"lacks {name!r}")
        return self.fields[name]

    def bytes_(self, name: str, size: int) -> bytes:
        value = self.get(name)
        if not isinstance(value, bytes) or len(value) != size:
            self.fail(f"{name!r} must be {size} bytes")
        return value

    def text(self, name: str, limit: int) -> str:
        value = self.get(name)
        if not isinstance(value, str) or len(value) > limit:
            self.fail(f"{name!r} must be text of at most {limit} characters")
        return value

    def flag(self, name: str) -> bool:
        value = self.get(name)
        if not isinstance(value, bool):
            self.fail(f"{name!r} must be true or false")
        return value

    def integer(self, name: str, low: int, high: int, optional: bool = False) -> int | None:
        value = self.get(name)
        if optional and value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(f"{name!r} must be an integer in {low}..{high}")
        return value

    def sub(self, name: str, value: Any) -> _Fields:
        return _Fields(self.culprit, f"{self.kind}.{name}", value)

    def listed(self, name: str, limit: int) -> list[Any]:
        value = self.get(name)
        if not isinstance(value, list) or len(value) > limit:
            self.fail(f"{name!r} must be a list of at most {limit} items")
        return value

    def options(self) -> tuple[tuple[str, OptionValue], ...]:
        value = self.get("options")
        if not isinstance(value, Mapping) or len(value) > MAX_OPTIONS:
            self.fail(f"'options' must be a map of at most {MAX_OPTIONS} entries")
        for name, option in value.items():
            if not isinstance(name, str) or not 0 < len(name) <= MAX_OPTION_NAME:
                self.fail(f"option name {name!r} is not short text")
            if not isinstance(option, bool | int | str) or (
                isinstance(option, str) and len(option) > MAX_OPTION_TEXT
            ):
                self.fail(f"option {name!r} must be a flag, an integer or short text")
            if isinstance(option, int) and not -(2**31) <= option < 2**31:
                self.fail(f"option {name!r} is out of range")
        return tuple(sorted(value.items()))

    def identity(self) -> PublicIdentity:
        return PublicIdentity(
            key=self.bytes_("key", PUBLIC_KEY_SIZE), name=self.text("name", MAX_NAME_LENGTH)
        )

    def host(self, name: str) -> str:
        value = self.text(name, 15)
        try:
            ipaddress.IPv4Address(value)
        except ValueError:
            self.fail(f"{name!r} must be an IPv4 address")
        return value


def _seat_view(fields: _Fields) -> SeatView:
    port = fields.integer("port", 1, 65535)
    assert port is not None
    return SeatView(fields.identity(), fields.flag("ready"), fields.host("host"), port)


def _roster(fields: _Fields) -> Roster:
    seats = tuple(
        fields.sub("seats", seat).identity() for seat in fields.listed("seats", MAX_SEATS)
    )
    try:
        return Roster(
            table_id=fields.bytes_("table_id", TABLE_ID_SIZE),
            game=fields.text("game", MAX_GAME_ID),
            options=fields.options(),
            seats=seats,
        )
    except ValueError as error:
        fields.fail(str(error))
        raise  # unreachable: fail() raises


def _decode_take(f: _Fields) -> TakeSeat:
    port = f.integer("port", 1, 65535)
    assert port is not None
    return TakeSeat(f.integer("seat", 0, MAX_SEATS - 1, optional=True), port)


def _decode_state(f: _Fields) -> LobbyState:
    phase = f.text("phase", 16)
    if phase not in PHASES:
        f.fail(f"unknown phase {phase!r}")
    seats = tuple(
        None if seat is None else _seat_view(f.sub("seats", seat))
        for seat in f.listed("seats", MAX_SEATS)
    )
    return LobbyState(
        table_id=f.bytes_("table_id", TABLE_ID_SIZE),
        game=f.text("game", MAX_GAME_ID),
        options=f.options(),
        seats=seats,
        phase=phase,
    )


def _decode_started(f: _Fields) -> TableStarted:
    signatures = f.listed("signatures", MAX_SEATS)
    if not all(isinstance(s, bytes) and len(s) == SIGNATURE_SIZE for s in signatures):
        f.fail(f"every signature must be {SIGNATURE_SIZE} bytes")
    return TableStarted(f.bytes_("digest", DIGEST_SIZE), tuple(signatures))


_DECODERS: dict[str, Callable[[_Fields], LobbyMessage]] = {
    kinds.LOBBY_TAKE: _decode_take,
    kinds.LOBBY_LEAVE: lambda f: LeaveSeat(),
    kinds.LOBBY_READY: lambda f: SetReady(f.flag("ready"), f.bytes_("options_digest", DIGEST_SIZE)),
    kinds.LOBBY_SIGN: lambda f: SignRoster(
        f.bytes_("digest", DIGEST_SIZE), f.bytes_("signature", SIGNATURE_SIZE)
    ),
    kinds.LOBBY_STATE: _decode_state,
    kinds.LOBBY_REFUSED: lambda f: SeatRefused(
        f.integer("seat", 0, MAX_SEATS - 1, optional=True), f.text("reason", MAX_REASON)
    ),
    kinds.LOBBY_START: lambda f: StartTable(_roster(f.sub("roster", f.get("roster")))),
    kinds.LOBBY_STARTED: _decode_started,
    kinds.LOBBY_CLOSED: lambda f: TableClosed(f.text("reason", MAX_REASON)),
}


def decode_lobby_message(message: Mapping[str, Any], culprit: str) -> LobbyMessage:
    """Parse one wire map; raises LobbyMessageError blaming `culprit` if it is malformed."""
    kind = message.get("t")
    decoder = _DECODERS.get(kind) if isinstance(kind, str) else None
    if decoder is None or not isinstance(kind, str):
        raise LobbyMessageError(culprit, f"unknown lobby message kind {kind!r}")
    return decoder(_Fields(culprit, kind, message))


# -- the signed roster as a record (transcript header, audits) -----------------------------------


def signed_roster_record(signed: SignedRoster) -> dict[str, Any]:
    """The whole signed roster as a map: enough for an auditor to check every signature."""
    return {"roster": _roster_wire(signed.roster), "signatures": list(signed.signatures)}


def parse_signed_roster_record(record: Any, culprit: str) -> SignedRoster:
    """Parse and verify a `signed_roster_record`; a bad one raises (RosterError or
    LobbyMessageError) blaming `culprit`."""
    fields = _Fields(culprit, "signed roster", record)
    roster = _roster(fields.sub("roster", fields.get("roster")))
    signatures = fields.listed("signatures", MAX_SEATS)
    if not all(isinstance(s, bytes) and len(s) == SIGNATURE_SIZE for s in signatures):
        fields.fail(f"every signature must be {SIGNATURE_SIZE} bytes")
    try:
        return SignedRoster.verified(roster, tuple(signatures))
    except RosterError as error:
        raise RosterError(culprit, f"{error.culprit}: {error.detail}", error.seat) from None
