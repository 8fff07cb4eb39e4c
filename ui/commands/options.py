"""Options shared by the subcommands, spelled and checked one way everywhere.

- `--bots N` is always a count (seats that bots take) and `--bot-kind KIND[,KIND…]` their kinds.
- `--data-dir DIR` is the data directory everywhere (`--data` still works, unlisted).
- Every number says its unit in its help text, and a value out of range is an argument error
  reported by the command line (exit 2, with the usage), never something the app finds later.
"""

from __future__ import annotations

import argparse
import ipaddress
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when used: `fairdeal tables` never pays for the rules engine
    from fairdeal.ui.number_option import NumberOption
    from fairdeal.ui.screen_game import ScreenGame
    from fairdeal.ui.table_factory import TableSpec

BOT_KINDS = ("heuristic", "random")
SEATS = (2, 8)  # the most any table seats (fairdeal.p2p's limit); each game narrows it
ANY_ADDRESS = ("0.0.0.0", "")


def seats(text: str) -> int:
    """A number of seats or players, 2-8 (the widest game's ruling)."""
    value = _integer(text)
    low, high = SEATS
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{value} is not {low}-{high} seats ({_widest_ruling()})")
    return value


def _widest_ruling() -> str:
    """The ruling of the game that seats the most players (the one SEATS follows)."""
    from fairdeal.engine.games import get_game

    widest = max(games(), key=lambda name: get_game(name).max_players)
    return seats_ruling(widest) or f"{get_game(widest).title}'s rule"


def seats_ruling(name: str) -> str:
    """The ruling on seats of game `name`, or "" for a game the app cannot show (one registered
    with its rules and table but no screens can still be simulated and audited)."""
    from fairdeal.ui.screen_game import SCREENS

    return screen_record(name).seats_ruling if name in SCREENS.names() else ""


def games() -> tuple[str, ...]:
    """The registered games' names (fairdeal.engine.games), the default first."""
    from fairdeal.engine.games import game_names

    return game_names()


def default_game() -> str:
    from fairdeal.engine.games import default_game as default

    return default()


def screen_record(name: str) -> ScreenGame[object, object]:
    """The app's record of game `name` (ui/screen_game.py)."""
    from fairdeal.ui.screen_game import screen_game

    return screen_game(name)


def seat_ranges(*, rulings: bool = False, style: str = "title first") -> str:
    """Each game's seat range for a help text: "Larry 2-8, …" (style "title first", rulings
    in brackets if asked) or "2-8 for Larry, …" (style "range first")."""
    from fairdeal.engine.games import get_game

    parts = []
    for name in games():
        rules = get_game(name)
        span = f"{rules.min_players}-{rules.max_players}"
        said = seats_ruling(name) if rulings else ""
        ruling = f" ({said})" if said else ""
        if style == "range first":
            parts.append(f"{span} for {rules.title}{ruling}")
        else:
            parts.append(f"{rules.title} {span}{ruling}")
    return ", ".join(parts)


def bot_count(text: str) -> int:
    """How many seats bots take: a number, not a kind (the kinds go in --bot-kind)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number: --bots says how many seats bots take; "
            f"choose their kind with --bot-kind {text}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} bots: a count cannot be negative")
    return value


def bot_kinds(text: str) -> str:
    """KIND or a comma list of kinds, one per bot seat in order (the last fills the rest)."""
    kinds = [kind.strip() for kind in text.split(",")]
    unknown = [kind for kind in kinds if kind not in BOT_KINDS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot kind {', '.join(repr(k) for k in unknown)}; "
            f"choose from {', '.join(BOT_KINDS)}"
        )
    return ",".join(kinds)


def seconds(text: str) -> float:
    """A duration in seconds, zero or more."""
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} s: a duration cannot be negative")
    return value


def positive_seconds(text: str) -> float:
    """A duration in seconds, more than zero."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} s: must be more than 0 seconds")
    return value


def bind_address(text: str) -> str:
    """An IPv4 address of this machine to listen on (0.0.0.0: every address)."""
    if text in ANY_ADDRESS:
        return "0.0.0.0"
    try:
        address = ipaddress.IPv4Address(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IPv4 address (fairdeal listens on IPv4 only)"
        ) from None
    if not address.is_loopback:
        from fairdeal.p2p.lobby.discovery import local_addresses

        mine = local_addresses()
        if str(address) not in mine:
            raise argparse.ArgumentTypeError(
                f"{text} is not an address of this machine (it has {', '.join(mine) or 'none'})"
            )
    return str(address)


def game(text: str) -> str:
    if text not in games():
        raise argparse.ArgumentTypeError(
            f"{text!r} cannot be played here yet; the games are: {', '.join(games())}"
        )
    return text


def _number_options() -> list[tuple[ScreenGame[object, object], NumberOption]]:
    """Every game's number options with their game, each name once (the first game's)."""
    from fairdeal.ui.screen_game import screen_games

    seen: set[str] = set()
    found = []
    for record in screen_games():
        for option in record.number_options:
            if option.name not in seen:
                seen.add(option.name)
                found.append((record, option))
    return found


def add_short(parser: argparse.ArgumentParser, help_text: str = "short game") -> None:
    """`--short`: each game's short game, as its record says ("one hand (L18)")."""
    from fairdeal.ui.screen_game import screen_games

    kinds = " or ".join(r.short_help for r in screen_games() if r.short_help)
    parser.add_argument("--short", action="store_true", help=f"{help_text}: {kinds}")


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Each game's whole-number table options (`--rounds N`, from the games' records): signed by
    every seat in the lobby's terms; a value out of range is an argument error (exit 2)."""
    for record, option in _number_options():
        short = f", {option.short_default} with --short" if option.short_default else ""
        parser.add_argument(
            option.flag,
            dest=option.name,
            type=ranged(option),
            default=None,
            metavar="N",
            help=f"{record.title}: {option.label}, {option.low}-{option.high} (default "
            f"{option.default}{short}; {option.ruling})",
        )


def number_choices(args: argparse.Namespace) -> dict[str, int | None]:
    """The number options given on the command line, by name (None: not given)."""
    return {option.name: getattr(args, option.name, None) for _, option in _number_options()}


def game_options_problem(args: argparse.Namespace, seats: int) -> str | None:
    """The combination check of a table's options (None: they make a game), naming the option:
    no other game's option given, the game's player count, its numbers together."""
    from fairdeal.ui.game_options import game_options, seats_problem

    record = screen_record(args.game)
    own = {option.name for option in record.number_options}
    given = [
        (owner, option)
        for owner, option in _number_options()
        if option.name not in own and getattr(args, option.name, None) is not None
    ]
    if given:
        owners = " and ".join(dict.fromkeys(owner.title for owner, _ in given))
        flags = ", ".join(option.flag for _, option in given)
        return f"{flags}: an option of {owners}, not of {record.title}"
    problem = seats_problem(args.game, seats)
    if problem is not None:
        return problem
    try:
        game_options(args.game, seats=seats, short_game=args.short, numbers=number_choices(args))
    except ValueError as error:
        return str(error)
    return None


def ranged(option: NumberOption) -> Callable[[str], int]:
    """An argparse type for a whole number in `option`'s range (the message names it)."""

    def parse(text: str) -> int:
        value = _integer(text)
        problem = option.check(value)
        if problem is not None:
            raise argparse.ArgumentTypeError(problem)
        return value

    return parse


def add_difficulty(parser: argparse.ArgumentParser, note: str) -> None:
    """`--difficulty LEVEL`: how hard the bots are to race where every seat grabs at once: how
    far they stray from the card they rate best and how fast they react, drawn from human-like
    reaction times (p2p/table/runtime/reaction.py). `--pace` replaces it with a fixed pace."""
    from fairdeal.engine.bots import DIFFICULTIES

    parser.add_argument(
        "--difficulty",
        choices=DIFFICULTIES,
        default=None,
        help=f"how hard the bots are to race where every seat grabs at once ({note}; "
        "normal: about as quick as a practised player)",
    )


def add_claim_pace(parser: argparse.ArgumentParser, default: float | None, note: str) -> None:
    """`--pace S`: seconds between a bot's claims, for a game where every seat grabs at once
    (its record's `claim_pace_help`): 0 grabs as fast as it can, a second or two lets people
    keep up. It replaces the difficulty's human-like reaction times."""
    from fairdeal.ui.screen_game import screen_games

    said = "; ".join(f"{r.title}: {r.claim_pace_help}" for r in screen_games() if r.claim_pace_help)
    parser.add_argument(
        "--pace",
        type=seconds,
        default=default,
        metavar="S",
        help=f"{said} ({note}; smaller is faster)",
    )


def add_game_argument(
    parser: argparse.ArgumentParser, what: str = "play", *, default: str | None = None
) -> None:
    """The GAME: the positional of `host`, `selfplay` and `simulate`; with a `default`, the
    `--game` option of `play`."""
    parser.add_argument(
        "game" if default is None else "--game",
        type=game,
        default=default,
        metavar="GAME",
        help=f"the game to {what}: {', '.join(games())}"
        + ("" if default is None else f" (default {default})"),
    )


def add_bots(parser: argparse.ArgumentParser, default: int | None, help_text: str) -> None:
    """`--bots N`: how many seats bots take, a count (their kinds go in --bot-kind)."""
    parser.add_argument("--bots", type=bot_count, default=default, metavar="N", help=help_text)


def data_directory(text: str) -> Path:
    """`--data-dir DIR`: a directory, or a path where one can be made; a file there is refused
    now, by name, instead of a bare "File exists" once the command has started."""
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a directory")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise argparse.ArgumentTypeError(f"{text}: {parent} is a file, not a directory")
            break
    return path


def add_data_dir(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    """`--data-dir DIR`, and the older `--data DIR` as an unlisted alias."""
    parser.add_argument(
        "--data-dir",
        type=data_directory,
        default=None,
        metavar="DIR",
        help=help_text
        or "your identity, transcripts and secrets (default: the per-user data directory)",
    )
    parser.add_argument("--data", dest="data_dir", type=data_directory, help=argparse.SUPPRESS)


DEFAULT_BOT_KIND = "heuristic"
"""The bots' kind when --bot-kind is not given, in every command."""


def add_seats(
    parser: argparse.ArgumentParser, help_text: str, *, old: str | None = None, **kwargs: Any
) -> None:
    """`--seats N`, the one name of a table's seat count in every command; `old` (`--players`,
    `--peers`) is the command's older spelling, if it had one, still accepted and not shown."""
    dest = kwargs.pop("dest", "seats")
    parser.add_argument("--seats", dest=dest, metavar="N", help=help_text, **kwargs)
    if old is None:
        return
    typed = {"type": kwargs["type"]} if "type" in kwargs else {}
    parser.add_argument(old, dest=dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **typed)


def add_no_mdns(parser: argparse.ArgumentParser, help_text: str) -> None:
    """`--no-mdns`, the one name of "discovery off"; `--no-discovery` is the older spelling."""
    parser.add_argument("--no-mdns", dest="no_mdns", action="store_true", help=help_text)
    parser.add_argument(
        "--no-discovery",
        dest="no_mdns",
        action="store_true",
        default=argparse.SUPPRESS,
        help=argparse.SUPPRESS,
    )


def add_bot_kind(
    parser: argparse.ArgumentParser, *, per_seat: bool, default: str = DEFAULT_BOT_KIND
) -> None:
    """`--bot-kind`: one kind, or (per_seat) a comma list by bot seat; `--bot` is an alias."""
    parser.add_argument(
        "--bot-kind",
        type=bot_kinds if per_seat else _one_kind,
        default=default,
        metavar="KIND[,KIND…]" if per_seat else "KIND",
        help=(
            f"the bots' kind ({', '.join(BOT_KINDS)}; default {default}), or a comma list by "
            "bot seat, the last kind filling the rest"
            if per_seat
            else f"the bot's kind ({', '.join(BOT_KINDS)}; default {default})"
        ),
    )
    parser.add_argument(
        "--bot", dest="bot_kind", type=bot_kinds if per_seat else _one_kind, help=argparse.SUPPRESS
    )


def add_bind(parser: argparse.ArgumentParser, what: str = "listen") -> None:
    parser.add_argument(
        "--bind",
        type=bind_address,
        default="0.0.0.0",
        metavar="ADDR",
        help=f"the IP address of this machine to {what} on (default 0.0.0.0: all of them)",
    )


def add_silence_limit(parser: argparse.ArgumentParser, default: float) -> None:
    parser.add_argument(
        "--silence-limit",
        type=positive_seconds,
        default=default,
        metavar="S",
        help=f"seconds a seat may stay silent before the table says it is holding up the game "
        f"(default {default:g})",
    )


def add_keep_waiting(parser: argparse.ArgumentParser) -> None:
    """`--keep-waiting`: a headless seat waits for a seat that left, quietly, for ever."""
    parser.add_argument(
        "--keep-waiting",
        action="store_true",
        help="headless: wait for a seat that left (silent past the silence limit with no "
        "connection) instead of ending the table with exit status 1",
    )


def add_timeout(parser: argparse.ArgumentParser, default: float | None, what: str) -> None:
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=default,
        metavar="S",
        help=f"give up {what} after S seconds"
        + (f" (default {default:g})" if default is not None else " (default: never)"),
    )


def table_spec(args: argparse.Namespace, **chosen: Any) -> TableSpec:
    """The table the command line asks for: its game, `--short`, `--bot-kind` and the game's
    numbers, with what the command chooses itself (`chosen`: seats, bots, pace, ...)."""
    from fairdeal.ui.table_factory import TableSpec

    spec = TableSpec(game=args.game, short_game=args.short, bot_kind=args.bot_kind, **chosen)
    return spec.choosing(number_choices(args))


def open_app(args: argparse.Namespace, spec: TableSpec, **settings: Any) -> int:
    """The Textual app on `spec` (ui/launch.py) as the user of `--data-dir` and `--name`,
    listening on `--bind`, looking for tables unless `--no-mdns`; `settings`, the command's own."""
    from fairdeal.ui.launch import run_app

    return run_app(
        spec,
        data_dir=args.data_dir,
        name=args.name,
        bind=args.bind,
        discovery=not args.no_mdns,
        **settings,
    )


def _one_kind(text: str) -> str:
    kind = bot_kinds(text)
    if "," in kind:
        raise argparse.ArgumentTypeError("one bot kind here, not a list")
    return kind


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value
