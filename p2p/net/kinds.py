"""Every kind of message a peer sends or signs, listed once with what it needs.

Two families share this list. A channel message is a msgpack map whose `t` names its kind
(protocol.md 3.3-3.5, 4.4-4.8, 5.2, 10.8, 10.12); for each, whether a peer relays it to others
and what a peer started again does with it. A log envelope has a `kind` (protocol.md 10.1,
10.11.1); for each, the game it belongs to (None: every game's) and what a seat restarted from
its transcript does with one it signed before (`Restart`, p2p/table/runtime/recovery.py).

The modules that send, sign or match a kind use the names below, never the string: a game's
table registers its own envelope kinds with `envelope_kind` (p2p/games/<game>/table.py), and
its `choice_kinds` are derived from the restart rule given there (`chosen_kinds`), so a new
game envelope cannot be forgotten by the restart. tests/p2p/test_message_kinds.py fails on a
kind written as a literal elsewhere, and on one protocol.md does not name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import TypeVar


class Restart(Enum):
    """What a seat restarted from its transcript does with an envelope of a kind it signed."""

    # The replay of the log owes it again (setup, fair-deck messages, receipts): the same body
    # is not signed a second time, it is dropped once per envelope signed before.
    OWED = "owed again by the replay; never signed twice"
    # The player's or bot's choice (actions, The Lie's step envelopes): the replay never makes
    # it, so nothing is dropped; the seat chooses anew where its log ends.
    CHOSEN = "chosen again by the player or bot; the replay never signs it"


@dataclass(frozen=True, slots=True)
class ChannelKind:
    """A channel message's `t`."""

    name: str
    relayed: bool  # a receiver passes it on to the other peers (the signature makes that safe)
    restart: str  # what a peer started again does about it
    section: str  # of protocol.md


@dataclass(frozen=True, slots=True)
class EnvelopeKind:
    """A log envelope's `kind`."""

    name: str
    game: str | None  # None: every game's table uses it
    restart: Restart
    section: str  # of protocol.md


KindT = TypeVar("KindT", ChannelKind, EnvelopeKind)

_CHANNEL: dict[str, ChannelKind] = {}
_ENVELOPE: dict[str, EnvelopeKind] = {}

CHANNEL_KINDS: Mapping[str, ChannelKind] = MappingProxyType(_CHANNEL)
ENVELOPE_KINDS: Mapping[str, EnvelopeKind] = MappingProxyType(_ENVELOPE)


def channel_kind(name: str, *, section: str, restart: str, relayed: bool = False) -> str:
    """List a channel message kind; returns its name, the constant its modules use."""
    return _listed(_CHANNEL, ChannelKind(name, relayed, restart, section))


def envelope_kind(
    name: str, *, section: str, restart: Restart = Restart.OWED, game: str | None = None
) -> str:
    """List an envelope kind (a game's, with `game`); returns its name, the constant its modules
    use."""
    return _listed(_ENVELOPE, EnvelopeKind(name, game, restart, section))


def chosen_kinds(game: str) -> frozenset[str]:
    """The envelope kinds a seat of `game` signs by its own choice: a replay after a restart
    never regenerates them (the table's `choice_kinds`)."""
    return frozenset(
        kind.name
        for kind in _ENVELOPE.values()
        if kind.restart is Restart.CHOSEN and kind.game in (None, game)
    )


def check_listed(game: str, names: Iterable[str]) -> None:
    """ValueError naming the first of `names` that is not listed as an envelope kind of `game`
    (a table that signs a kind unlisted here would have a restart sign its choices again)."""
    for name in names:
        kind = _ENVELOPE.get(name)
        if kind is None or kind.game not in (None, game):
            raise ValueError(
                f"envelope kind {name!r} of {game} is not listed: register it with "
                "envelope_kind (p2p/net/kinds.py)"
            )


def _listed(registry: dict[str, KindT], kind: KindT) -> str:
    listed = registry.setdefault(kind.name, kind)
    if listed != kind:
        raise ValueError(f"message kind {kind.name!r} is listed twice, differently")
    return kind.name


PER_CHANNEL = "per channel: a new channel after a restart starts afresh"

# -- the handshake (protocol.md 3.3): once per channel, before it is encrypted ---------------
ID = channel_kind("id", section="3.3", restart=PER_CHANNEL)
HELLO = channel_kind("hello", section="3.3", restart=PER_CHANNEL)
HELLO_ACK = channel_kind("hello-ack", section="3.3", restart=PER_CHANNEL)
AUTH = channel_kind("auth", section="3.3", restart=PER_CHANNEL)

# -- every channel (3.5) ----------------------------------------------------------------------
PING = channel_kind("ping", section="3.5", restart=PER_CHANNEL)
PONG = channel_kind("pong", section="3.5", restart=PER_CHANNEL)
BYE = channel_kind("bye", section="3.5", restart=PER_CHANNEL)
ERROR = channel_kind("error", section="3.5, 9", restart=PER_CHANNEL)

# -- the table log (4.4, 4.6) -----------------------------------------------------------------
ENV = channel_kind(
    "env",
    section="4.4",
    relayed=True,
    restart="the log is read back from the transcript; what it lost comes back by `need`",
)
NEED = channel_kind(
    "need",
    section="4.6",
    restart="sent on every new channel; a restarted author signs nothing before every answer",
)
NEED_DONE = channel_kind(
    "need-done", section="4.6", restart="ends one answer to `need`; a restart asks again"
)

# -- watchers (4.8) ---------------------------------------------------------------------------
WATCH = channel_kind("watch", section="4.8", restart="a watcher asks again, of another seat")
WATCHING = channel_kind("watching", section="4.8", restart=PER_CHANNEL)
WATCH_REFUSED = channel_kind("watch-refused", section="4.8", restart=PER_CHANNEL)
WATCHERS = channel_kind(
    "watchers", section="4.8", restart="sent again to every seat whose channel comes up"
)

# -- the lobby (5.2): a lobby is not resumed; a restart gathers no table again -----------------
LOBBY = "a lobby does not outlive its peers: a restarted seat resumes the table, not the lobby"
LOBBY_TAKE = channel_kind("lobby-take", section="5.2", restart=LOBBY)
LOBBY_LEAVE = channel_kind("lobby-leave", section="5.2", restart=LOBBY)
LOBBY_READY = channel_kind("lobby-ready", section="5.2", restart=LOBBY)
LOBBY_SIGN = channel_kind("lobby-sign", section="5.2", restart=LOBBY)
LOBBY_STATE = channel_kind("lobby-state", section="5.2", restart=LOBBY)
LOBBY_REFUSED = channel_kind("lobby-refused", section="5.2", restart=LOBBY)
LOBBY_START = channel_kind("lobby-start", section="5.2", restart=LOBBY)
LOBBY_STARTED = channel_kind("lobby-started", section="5.2", restart=LOBBY)
LOBBY_CLOSED = channel_kind("lobby-closed", section="5.2", restart=LOBBY)

# -- the table, outside the log (10.8, 10.12) -------------------------------------------------
FWD = channel_kind(
    "fwd",
    section="10.8",
    relayed=True,
    restart="the giver sends its own again to every seat whose channel comes up; the receiver "
    "keeps a forward it used in its secrets file",
)
LEFT = channel_kind(
    "left",
    section="10.12",
    relayed=True,
    restart="kept in <transcript>.left; a seat that resumes signs on, and is back",
)

# -- envelopes every game's table signs (10.1) ------------------------------------------------
ROSTER = envelope_kind("roster", section="10.1")
DECK = envelope_kind("deck", section="10.1, 10.3")
