"""The one place that decides which `TableSession` the UI plays on.

A table of one human and bots is a `LocalTable`; a table with other people on it, joining a table
found on the network, or connecting to HOST:PORT needs the networked table driver
(p2p/table/tools/session.py).
A build without that driver raises `NetworkedPlayUnavailable` there, with a message the UI shows.

The hook for the networked driver: a module `p2p.table.tools.session`
(NETWORKED_DRIVER_MODULE) with

    host_table(*, seats: int, bots: int, options: <the game's engine options>, name: str,
               bot_kind: str, bot_delay: float, claim_pace: float, difficulty: str | None)
        -> TableSession   # opens and advertises a table, fills `bots` seats with bot peers
    join_table(*, host: str, port: int, name: str) -> TableSession
    join_discovered(table: DiscoveredTable, *, name: str) -> TableSession  # a table from mDNS

Both return at once; the session's `start()` gathers the seats, keys, shuffles and deals, and
reports progress with SetupProgress/Notice events before its first StateChanged.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from fairdeal.engine.bots import DEFAULT_DIFFICULTY, DIFFICULTIES
from fairdeal.engine.games import default_game, game_names
from fairdeal.p2p.lobby.discovery import DiscoveredTable
from fairdeal.p2p.table.core.api import TableSession
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.game_options import game_options, seats_problem
from fairdeal.ui.screen_game import TableChoice, screen_games

NETWORKED_DRIVER_MODULE = (
    "fairdeal.p2p.table.tools.session"  # the networked TableSession lives here
)
BOT_KINDS = ("heuristic", "random")
UNAVAILABLE = "this build has no networked table driver (fairdeal.p2p.table.tools.session)"


class NetworkedPlayUnavailable(RuntimeError):
    """This build has no networked table driver yet."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What the player chose when opening a table."""

    game: str = field(default_factory=default_game)
    seats: int = 4
    bots: int = 3
    seat: int = 0  # the human's seat at a local table (seat 0 starts hand 1, L5)
    short_game: bool = False
    # The whole-number options chosen, (name, value) sorted by name: each game's record
    # (ui/screen_game.py) lists its own and their rulings; one not here takes the game's
    # default, and a game refuses another game's number.
    chosen_numbers: tuple[tuple[str, int], ...] = ()
    seed: int | None = None
    bot_kind: str = "heuristic"  # or a comma list, one kind per bot seat in order
    bot_delay: float = 0.6
    # Where seats race: how hard the bots are (their choices and human-like reaction times,
    # p2p/table/runtime/reaction.py), unless a fixed `claim_pace` (seconds; 0: flat out)
    # replaces it.
    difficulty: str = DEFAULT_DIFFICULTY
    claim_pace: float | None = None
    name: str = "You"
    fingerprint: str = ""  # the player's key code, as SeatInfo.fingerprint shows it
    networked: bool = False  # open it on the network even when bots fill every other seat

    @property
    def humans(self) -> int:
        return self.seats - self.bots

    @property
    def local(self) -> bool:
        """One human and bots, not opened on the network: a LocalTable."""
        return self.humans == 1 and not self.networked

    def numbers(self) -> dict[str, int]:
        """The whole-number options chosen, by name (one not here: the game's default)."""
        return dict(self.chosen_numbers)

    def choice(self) -> TableChoice:
        """What was chosen of the game's own options: a short game or not, and the numbers."""
        return TableChoice(short_game=self.short_game, numbers=self.numbers())

    def choosing(self, numbers: Mapping[str, int | None]) -> TableSpec:
        """This spec with the whole-number options `numbers` (by name; None: back to the
        game's default) chosen on top of those chosen before."""
        known = {option.name for game in screen_games() for option in game.number_options}
        unknown = set(numbers) - known
        if unknown:
            raise ValueError(f"no game has the option(s) {sorted(unknown)}")
        merged = {**self.numbers(), **numbers}
        chosen = tuple(sorted((n, v) for n, v in merged.items() if v is not None))
        return replace(self, chosen_numbers=chosen)

    def options(self) -> object:
        """The game's engine options for this table (a short game as its record says); ValueError
        naming the option for a value out of range or one of another game."""
        return game_options(
            self.game, seats=self.seats, short_game=self.short_game, numbers=self.numbers()
        )

    def validate(self) -> None:
        if self.game not in game_names():
            raise ValueError(f"unknown game {self.game!r} (choose {' or '.join(game_names())})")
        problem = seats_problem(self.game, self.seats)
        if problem is not None:
            raise ValueError(problem)
        self.options()  # raises for a number out of range, or one of another game
        if not 0 <= self.bots < self.seats:
            raise ValueError(f"0 to {self.seats - 1} bots fit at a table of {self.seats}")
        if not 0 <= self.seat < self.seats:
            raise ValueError(f"seat must be 0-{self.seats - 1}")
        unknown = set(self.bot_kind.replace(" ", "").split(",")) - set(BOT_KINDS)
        if unknown:
            raise ValueError(f"unknown bot kind(s) {sorted(unknown)}; choose from {BOT_KINDS}")
        if not 0 <= self.bot_delay <= 60 or not 0 <= (self.claim_pace or 0) <= 60:
            raise ValueError("a bot's delay and claim pace are 0 to 60 seconds")
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {self.difficulty!r}; choose from {DIFFICULTIES}")

    @property
    def race_pace(self) -> float:
        """The bots' fixed claim pace (unused at a difficulty)."""
        return self.claim_pace or 0.0

    @property
    def race_difficulty(self) -> str | None:
        """The difficulty the bots race at; None: at the fixed `claim_pace` instead."""
        return self.difficulty if self.claim_pace is None else None


def open_table(spec: TableSpec) -> TableSession[Any, Any]:
    """A table as chosen: local when every other seat is a bot (unless asked to open it on the
    network), networked otherwise."""
    spec.validate()
    if spec.local:
        return LocalTable(
            spec.seats,
            game=spec.game,
            seat=spec.seat,
            human_name=spec.name,
            human_fingerprint=spec.fingerprint,
            options=spec.options(),
            seed=spec.seed,
            bot_kind=spec.bot_kind,
            bot_delay=spec.bot_delay,
            claim_pace=spec.race_pace,
            difficulty=spec.race_difficulty,
            hold_rounds=True,  # the app says when the player can see a new round's table
        )
    return _networked(
        "host_table",
        seats=spec.seats,
        bots=spec.bots,
        options=spec.options(),
        name=spec.name,
        bot_kind=spec.bot_kind,
        bot_delay=spec.bot_delay,  # bot peers think as long as bots at a local table
        claim_pace=spec.race_pace,  # and race as those do (The Lie's Phase 1, T3)
        difficulty=spec.race_difficulty,
    )


def join_table(host: str, port: int, name: str) -> TableSession[Any, Any]:
    """Join a table found in the lobby or typed in as HOST:PORT."""
    if not host or not 0 < port < 65536:
        raise ValueError(f"{host}:{port} is not an address to connect to")
    return _networked("join_table", host=host, port=port, name=name)


def join_discovered(table: DiscoveredTable, name: str) -> TableSession[Any, Any]:
    """Join a table found on the network (the lobby list), at any address it advertises."""
    return _networked("join_discovered", table, name=name)


def parse_address(text: str) -> tuple[str, int]:
    """ "HOST:PORT" → (host, port); raises ValueError with a message for the player."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep or not host or not port_text.isdigit():
        raise ValueError(f"{text!r} is not HOST:PORT (for example 192.168.1.20:45123)")
    port = int(port_text) if len(port_text) <= 5 else 0
    if not 0 < port < 65536:
        raise ValueError(f"port {port_text[:8]} is out of range (1-65535)")
    return host.strip("[]"), port


def _networked(function: str, *positional: object, **arguments: object) -> TableSession[Any, Any]:
    try:
        module = importlib.import_module(NETWORKED_DRIVER_MODULE)
    except ModuleNotFoundError as error:
        if error.name != NETWORKED_DRIVER_MODULE:
            raise  # the driver is there but broken: that must not pass for "not built yet"
        raise NetworkedPlayUnavailable(UNAVAILABLE) from None
    factory = getattr(module, function, None)
    if factory is None:
        raise NetworkedPlayUnavailable(UNAVAILABLE)
    session: TableSession[Any, Any] = factory(*positional, **arguments)
    return session
