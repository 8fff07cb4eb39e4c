"""Which of fairdeal's modules a networked move crosses, from a key press on one peer's screen
to the moment another peer's screen shows it.

In one process: two peers of a networked table over loopback (127.0.0.1, no mDNS), each with
its own app and table screen (Textual, headless). Seat A's screen is driven by a pilot key press
(The Lie: Enter takes a card in Phase 1; Larry: d doubts B's play); the profiler follows what
that press causes, across tasks, queues, threads and the socket, until seat B's screen has
handled the table events the move brought and drawn them. The counting rule is in
bench/README.md ("route.py"); `count_route` below is it. Run:

    python bench/route.py [--game lie|larry|both] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calibration import BenchRun

LAYERS = ("engine", "p2p", "ui")
WAIT_S = 60.0


# -- the counting rule: a pure function over recorded units, so a test can feed it a fake route


@dataclass
class Unit:
    """One run of an event loop's callback (a task's step, a reader's callback, a timer) or of
    a worker thread's job."""

    owner: str  # "A", "B" (the app whose context it ran in) or "" (none)
    number: int = -1  # the order caused units started (or were caused) in; -1: not caused
    parents: list[tuple[int, int]] = field(default_factory=list)  # (cause, cause's seq then)
    hops: int = 0  # socket crossings between the key press and this unit
    # (seq, module, function, caller): caller is "module:function" of the fairdeal frame that
    # made the call, "" when another package's did (asyncio resuming a task, Textual, …)
    calls: list[tuple[int, str, str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Route:
    modules: list[str]  # fairdeal modules, in order of first entry
    calls: list[str]  # distinct fairdeal functions, "module:qualname", in order of first entry
    members: frozenset[int]  # the units on the route
    by_peer: dict[str, list[str]]  # the modules each peer's units ran on the route ("A", "B")
    edges: frozenset[tuple[str, str]]  # (caller, callee) between fairdeal functions

    def crossings(self) -> set[tuple[str, str]]:
        """The module boundaries crossed: (caller module, callee module), distinct."""
        return {
            (module_of(caller), module_of(callee))
            for caller, callee in self.edges
            if module_of(caller) != module_of(callee)
        }

    def forwarders(self) -> dict[str, list[str]]:
        """Modules on the route whose every function on it called exactly one fairdeal
        function, in another module: passed through only to forward a call. By module, its
        functions as "function -> callee"."""
        callees: dict[str, set[str]] = {}
        for caller, callee in self.edges:
            callees.setdefault(caller, set()).add(callee)
        found: dict[str, list[str]] = {}
        for module in self.modules:
            functions = [c for c in self.calls if module_of(c) == module]
            forwards = []
            for function in functions:
                out = callees.get(function, set())
                if len(out) != 1 or module_of(next(iter(out))) == module:
                    break
                forwards.append(f"{function.split(':', 1)[1]} -> {next(iter(out))}")
            else:
                found[module] = forwards
        return found

    @property
    def units(self) -> int:
        return len(self.members)

    def by_layer(self) -> dict[str, list[str]]:
        layers: dict[str, list[str]] = {layer: [] for layer in LAYERS}
        for module in self.modules:
            layers.setdefault(layer_of(module), []).append(module)
        return layers

    def figures(self) -> dict[str, Any]:
        return {
            "modules": len(self.modules),
            "calls": len(self.calls),
            "units": self.units,
            "by_layer": {layer: len(mods) for layer, mods in self.by_layer().items()},
            "crossings": len(self.crossings()),
            "forwarders": self.forwarders(),
            "module_list": self.modules,
            "by_peer": self.by_peer,
            "call_list": self.calls,
        }


def module_of(function: str) -> str:
    """fairdeal.p2p.net.mesh:Mesh.send -> fairdeal.p2p.net.mesh"""
    return function.split(":", 1)[0]


def layer_of(module: str) -> str:
    """fairdeal.engine.lie.state -> engine (the package after `fairdeal.`)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "fairdeal" else "other"


def count_route(units: list[Unit], targets: set[int]) -> Route:
    """The route: the `targets` units (the receiving screen showing the move) and every unit
    that caused one of them, transitively. A target counts all its calls; a unit before the
    targets counts its calls up to the last moment it caused a unit on the route (what it ran
    after that led nowhere on the route: the sender's own redraw, say). Units the press caused
    that lead to no target (a flush to disk, a later step) are not on the route. Each fairdeal
    module and function counts once, in order of first entry."""
    by_number = {unit.number: unit for unit in units}
    on_route: set[int] = set()
    todo = list(targets)
    while todo:
        number = todo.pop()
        if number in on_route or number not in by_number:
            continue
        on_route.add(number)
        todo.extend(parent for parent, _ in by_number[number].parents)
    last_cause: dict[int, int] = {}  # a unit before the targets: its last seq that mattered
    for number in on_route:
        for parent, seq in by_number[number].parents:
            last_cause[parent] = max(seq, last_cause.get(parent, -1))
    first: dict[str, int] = {}
    first_call: dict[str, int] = {}
    peers: dict[str, dict[str, int]] = {}  # by peer: its modules' first entries
    edges: set[tuple[str, str]] = set()
    for number in on_route:
        limit = sys.maxsize if number in targets else last_cause.get(number, sys.maxsize)
        unit = by_number[number]
        for seq, module, function, caller in unit.calls:
            if seq > limit:
                break
            peer = peers.setdefault(unit.owner or "-", {})
            peer[module] = min(seq, peer.get(module, sys.maxsize))
            if caller:
                edges.add((caller, f"{module}:{function}"))
            if seq < first.get(module, sys.maxsize):
                first[module] = seq
            name = f"{module}:{function}"
            if seq < first_call.get(name, sys.maxsize):
                first_call[name] = seq
    return Route(
        modules=sorted(first, key=first.__getitem__),
        calls=sorted(first_call, key=first_call.__getitem__),
        members=frozenset(on_route),
        edges=frozenset(edges),
        by_peer={peer: sorted(mods, key=mods.__getitem__) for peer, mods in sorted(peers.items())},
    )


def showing(units: list[Unit], reached: int, owner: str) -> set[int]:
    """The units that show the move on `owner`'s screen: `reached` (where that screen had
    handled the table event that carries the move) and the units of `owner` it caused that
    ran fairdeal's ui code (the widgets drawing what changed)."""
    children: dict[int, list[int]] = {}
    for unit in units:
        for parent, _ in unit.parents:
            children.setdefault(parent, []).append(unit.number)
    by_number = {unit.number: unit for unit in units}
    shown, todo, seen = {reached}, [reached], {reached}
    while todo:
        for child in children.get(todo.pop(), []):
            if child in seen:
                continue
            seen.add(child)
            todo.append(child)
            unit = by_number[child]
            if unit.owner == owner and any(layer_of(call[1]) == "ui" for call in unit.calls):
                shown.add(child)
    return shown


# -- the tracer: what the key press causes -----------------------------------------------------

# comprehensions are part of their function (3.12 inlines them: PEP 709), so every version
# counts the same calls
_INLINED = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>"})
_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, tuple, frozenset, type)


def _code_of(function: Any) -> Any:
    return function.__code__


class CausalTracer:
    """sys.setprofile on the loop's thread and threading.setprofile on the worker threads (set
    before the table's threads start). A *unit* is one `Handle._run` (asyncio runs every task
    step, I/O callback and timer through it) or one `_WorkItem.run` (a thread pool's job). A
    unit is caused by the key press when one of these holds:

    - its handle was scheduled (call_soon, call_at, call_soon_threadsafe; a task's wake-up, a
      future's callback, a new task's first step) by a caused unit;
    - its job was submitted to a thread pool by a caused unit;
    - it received bytes a caused unit wrote to a socket (`data_received`: one socket crossing);
    - it received an object made (`__init__`) or queued (`put_nowait`) by a caused unit, as
      a value returned to it (a queue's `get`, an iterator's next) or an argument of a fairdeal
      function.
    The rest (the silence watch's tick, heartbeats, redraw timers armed before the press) is
    not followed."""

    def __init__(self, owner_of: Callable[[Any], str]) -> None:
        import asyncio.base_events as base_events
        import asyncio.events as events
        import concurrent.futures.thread as thread

        self.owner_of = owner_of  # a handle's context -> "A", "B" or ""
        self._run = _code_of(events.Handle._run)
        self._work_init = _code_of(thread._WorkItem.__init__)
        self._work_run = _code_of(thread._WorkItem.run)
        self._schedulers = {
            _code_of(base_events.BaseEventLoop.call_soon),
            _code_of(base_events.BaseEventLoop.call_at),
            _code_of(base_events.BaseEventLoop.call_soon_threadsafe),
        }
        import asyncio.selector_events as selector_events

        transport = selector_events._SelectorSocketTransport
        self._write = _code_of(transport.write)
        # 3.12+ writes a list of buffers without going through write()
        self._writelines = _code_of(getattr(transport, "writelines", transport.write))
        self.on = False
        self.units: list[Unit] = []  # the caused ones, by number
        self._stacks: dict[int, list[Unit]] = {}  # per thread: the units running
        self._handles: dict[int, tuple[Any, Unit, int]] = {}  # (handle, cause, seq) by id
        self._jobs: dict[int, tuple[Any, Unit, int]] = {}
        self._objects: dict[int, tuple[Any, Unit, int]] = {}
        self._wire: list[tuple[bytes, Unit, int]] = []
        self._seq = 0  # counts fairdeal calls, in every thread
        self.until: Callable[[], bool] | None = None  # checked as each unit ends
        self.reached: Unit | None = None  # the unit at whose end `until` first held

    # the hook runs on every call and return: keep the common path short
    def hook(self, frame: Any, event: str, arg: Any) -> None:
        if not self.on or event.startswith("c_"):
            return
        code = frame.f_code
        stack = self._stacks.get(threading.get_ident())
        if stack is None:
            stack = self._stacks[threading.get_ident()] = []
        if code is self._run or code is self._work_run:
            if event == "call":
                runs = frame.f_locals["self"]
                held = (self._handles if code is self._run else self._jobs).pop(id(runs), None)
                unit = Unit(self.owner_of(runs) if code is self._run else "")
                if held is not None and held[0] is runs:
                    self._caused(unit, held[1], held[2], held[1].hops)
                stack.append(unit)
            elif stack:
                ended = stack.pop()
                if self.until is not None and self.until():
                    self.until = None
                    self.reached = ended
            return
        if not stack:  # outside any unit (the loop choosing what runs next)
            return
        unit = stack[-1]
        if event == "return":
            if unit.number >= 0:
                if code in self._schedulers:
                    self._handles[id(arg)] = (arg, unit, self._seq)
            elif arg is not None:  # an uncaused unit handed a caused object: caused from here
                self._receive(unit, arg)
            return
        if event != "call":
            return
        name = frame.f_globals.get("__name__", "")
        if unit.number < 0:
            if code.co_name == "data_received":
                self._received_bytes(unit, frame.f_locals.get("data"))
            elif name.startswith("fairdeal."):
                f_locals = frame.f_locals
                for arg_name in code.co_varnames[: code.co_argcount]:
                    if self._receive(unit, f_locals.get(arg_name)):
                        break
            if unit.number < 0:
                return
        if code is self._write or code is self._writelines:
            f_locals = frame.f_locals
            data = f_locals.get("data")
            buffers = f_locals.get("list_of_data")
            if isinstance(buffers, list | tuple):  # never consume an iterator the write needs
                data = b"".join(buffers)
            if data:
                self._wire.append((bytes(data), unit, self._seq))
        elif code is self._work_init:
            job = frame.f_locals["self"]
            self._jobs[id(job)] = (job, unit, self._seq)
        elif code.co_name == "__init__" or code.co_name == "put_nowait":
            index = 0 if code.co_name == "__init__" else 1
            if code.co_argcount > index:
                obj = frame.f_locals.get(code.co_varnames[index])
                if not isinstance(obj, _IMMUTABLE):
                    self._objects[id(obj)] = (obj, unit, self._seq)
        if name.startswith("fairdeal.") and code.co_name not in _INLINED:
            self._seq += 1
            back = frame.f_back
            while back is not None and back.f_code.co_name in _INLINED:
                back = back.f_back
            caller = ""
            if back is not None:
                back_name = back.f_globals.get("__name__", "")
                if back_name.startswith("fairdeal."):
                    caller = f"{back_name}:{back.f_code.co_qualname}"
            unit.calls.append((self._seq, name, code.co_qualname, caller))

    def _caused(self, unit: Unit, cause: Unit, seq: int, hops: int) -> None:
        """`unit` is caused by `cause` (at its call `seq`) from now on."""
        unit.number = len(self.units)
        unit.parents.append((cause.number, seq))
        unit.hops = hops
        unit.owner = unit.owner or cause.owner
        self.units.append(unit)

    def _receive(self, unit: Unit, obj: Any) -> bool:
        held = self._objects.get(id(obj))
        if held is None or held[0] is not obj:
            return False
        self._caused(unit, held[1], held[2], held[1].hops)
        return True

    def _received_bytes(self, unit: Unit, data: Any) -> None:
        if not data:
            return
        data = bytes(data)
        for sent, cause, seq in self._wire:
            if sent in data or data in sent:
                self._caused(unit, cause, seq, cause.hops + 1)
                return

    def press(self, owner: str) -> None:
        """The running step (the pilot's key press, next) is the route's first unit."""
        stack = self._stacks.setdefault(threading.get_ident(), [])
        unit = Unit(owner, number=len(self.units))
        self.units.append(unit)
        stack.append(unit)

    @contextlib.contextmanager
    def installed(self) -> Iterator[CausalTracer]:
        """The hook on the worker threads started from now on (3.12+: every thread), and on
        this thread while `on` is set."""
        setprofile_all = getattr(threading, "setprofile_all_threads", None)
        if setprofile_all is not None:
            setprofile_all(self.hook)
        else:
            threading.setprofile(self.hook)
        sys.setprofile(self.hook)
        try:
            yield self
        finally:
            self.on = False
            if setprofile_all is not None:
                setprofile_all(None)
            else:
                threading.setprofile(None)  # type: ignore[arg-type]
            sys.setprofile(None)


# -- the networked table: two apps in one process over loopback --------------------------------


@dataclass
class Peer:
    label: str
    app: Any  # FairdealApp
    pilot: Any  # textual.pilot.Pilot
    session: Any  # NetworkedTable

    def screen(self) -> Any:
        """The table screen following this peer's session (under any dialog)."""
        for screen in reversed(self.app.screen_stack):
            if getattr(screen, "session", None) is self.session:
                return screen
        raise LookupError(f"{self.label}: no table screen")

    def view(self) -> Any:
        """This seat's view of the game, or None while the table is being set up."""
        try:
            view = self.session.view()
        except Exception:  # still gathering, or no state yet
            return None
        return view if getattr(view, "state", None) is not None else None

    def my_turn(self) -> bool:
        view = self.view()
        return view is not None and bool(getattr(view, "my_turn", False))

    async def caught_up(self) -> None:
        """This peer's screen has handled every event its session emitted, and drawn."""
        async with asyncio.timeout(WAIT_S):
            while True:
                try:
                    if self.screen().events_seen >= self.session.event_count:
                        break
                except LookupError:
                    pass
                await self.pilot.pause()
        await self.pilot.pause()


def settings(data: Path) -> Any:
    from fairdeal.p2p.table.tools.session import NetworkSettings

    return NetworkSettings(
        data_dir=data, bind="127.0.0.1", interfaces=("127.0.0.1",), advertise=False
    )


def options_of(game: str) -> Any:
    if game == "lie":
        from fairdeal.engine.lie import LieOptions

        return LieOptions(rounds=1, hand_size=3)
    from fairdeal.engine.larry import LarryOptions

    return LarryOptions(short_game=True)


def make_app(name: str, session: Any) -> Any:
    from fairdeal.ui.app import FairdealApp
    from fairdeal.ui.player import Player
    from fairdeal.ui.table_finder import FixedFinder

    player = Player(name, "01234 56789 13579 24680 11223", "0123456789abcdef")
    return FairdealApp(player, session=session, finder=FixedFinder(), reveal_interval=0)


@contextlib.asynccontextmanager
async def networked_pair(game: str, data: Path) -> Any:
    """Seat A hosts a two-seat table of `game` in its app; seat B's app joins it by address."""
    from fairdeal.p2p.table.tools.session import host_table, join_table

    host = host_table(
        seats=2, bots=0, options=options_of(game), name="Ana", settings=settings(data / "a")
    )
    app_a = make_app("Ana", host)
    async with app_a.run_test(size=(120, 40)) as pilot_a:
        await host.wait_for(lambda: host.address is not None, WAIT_S)
        address, port = host.address
        guest = join_table(host=address, port=port, name="Ben", settings=settings(data / "b"))
        app_b = make_app("Ben", guest)
        async with app_b.run_test(size=(120, 40)) as pilot_b:
            try:
                yield Peer("A", app_a, pilot_a, host), Peer("B", app_b, pilot_b, guest)
            finally:
                await guest.close()
                await host.close()


def legal_names(game: str, view: Any) -> set[str]:
    from fairdeal.engine.games import get_game

    try:
        return {type(action).__name__ for action in get_game(game).legal_actions(view)}
    except Exception:  # a view between states: nothing legal yet
        return set()


@dataclass(frozen=True)
class Move:
    game: str
    key: str  # what seat A presses

    def ready(self, a: Peer) -> bool:
        view = a.view()
        if view is None:
            return False
        if self.game == "lie":
            return bool(getattr(view, "can_claim", False))
        return "Doubt" in legal_names(self.game, view)

    def shows(self, before: Any, state: Any) -> bool:
        """A state B's table emitted shows the move: The Lie, any new state (A's claim
        applied); Larry, the doubt resolved (the pile B saw is gone, no reveal awaited)."""
        if self.game == "lie":
            return state != before
        return state.awaiting is None and state.pile != before.pile


def states(session: Any, start: int = 0) -> Iterator[tuple[int, Any]]:
    """(index, state) of the session's events from `start` that carry a game state."""
    events = session.history.events
    for index in range(start, len(events)):
        state = getattr(events[index], "state", None)
        if state is not None:
            yield index, state


async def to_the_move(move: Move, a: Peer, b: Peer) -> None:
    """Play up to the moment seat A may make the move, both screens caught up (Larry: each
    seat in turn plays the card under its cursor face down until A may doubt B's play)."""
    async with asyncio.timeout(WAIT_S * 3):
        while not move.ready(a):
            for peer in (a, b):
                await peer.caught_up()
                if move.game == "larry" and not move.ready(a) and peer.my_turn():
                    await play_face_down(peer)
    for peer in (a, b):
        await peer.caught_up()


async def play_face_down(peer: Peer) -> None:
    """Larry: Enter plays the card under the cursor, Enter takes the announcement's default."""
    seen = peer.session.event_count
    await peer.pilot.press("enter")
    for _ in range(3):
        if peer.app.screen is peer.screen():
            break
        await peer.pilot.press("enter")
    await peer.session.wait_for(lambda: peer.session.event_count > seen, WAIT_S)


@dataclass
class Trace:
    units: list[Unit]  # every unit the key press caused until B's screen showed the move
    reached: int  # the unit in which B's screen had handled the event that shows it
    events: list[str]  # the table events B's screen handled until then (their types)

    def route(self) -> Route:
        """The route from the key press to B's screen showing the move."""
        return count_route(self.units, showing(self.units, self.reached, "B"))


async def trace_move(move: Move, data: Path) -> Trace:
    """What A's key press caused until B's screen showed the move."""
    async with networked_pair(move.game, data) as (a, b):
        labels = {id(a.app): "A", id(b.app): "B"}
        from textual._context import active_app

        def owner_of(handle: Any) -> str:
            context = getattr(handle, "_context", None)
            app = context.get(active_app, None) if context is not None else None
            return labels.get(id(app), "")

        tracer = CausalTracer(owner_of)
        with tracer.installed():
            await to_the_move(move, a, b)
            first_event = b.session.event_count
            before = [state for _, state in states(b.session)][-1]
            shown_at: list[int] = []  # B's event count up to the event that shows the move

            def until() -> bool:
                """B's screen has handled the table event that shows the move."""
                if not shown_at:
                    for index, state in states(b.session, first_event):
                        if move.shows(before, state):
                            shown_at.append(index + 1)
                            break
                    else:
                        return False
                try:
                    return bool(b.screen().events_seen >= shown_at[0])
                except LookupError:
                    return False

            tracer.until = until
            tracer.on = True
            tracer.press("A")
            await a.pilot.press(move.key)
            async with asyncio.timeout(WAIT_S):
                while tracer.until is not None:
                    await b.pilot.pause()
            await b.pilot.pause()  # and drawn
            tracer.on = False
            events = b.session.history.events[first_event : shown_at[0]]
    if tracer.reached is None or tracer.reached.number < 0:
        raise RuntimeError(
            f"{move.game}: B's screen showed the move in a unit the key press did not cause "
            "(the tracer lost the route: see bench/README.md, route.py)"
        )
    return Trace(tracer.units, tracer.reached.number, [type(event).__name__ for event in events])


MOVES = {"lie": Move("lie", "enter"), "larry": Move("larry", "d")}


def print_route(title: str, route: Route) -> None:
    print(
        f"{title}: {len(route.modules)} modules, {len(route.calls)} calls, "
        f"{len(route.crossings())} module crossings, {route.units} units"
    )
    for layer, modules in route.by_layer().items():
        print(
            f"  {layer} ({len(modules)}): "
            + ", ".join(m.removeprefix("fairdeal.") for m in modules)
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("lie", "larry", "both"), default="both")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--calls", action="store_true", help="print every function counted")
    args = parser.parse_args()
    run = BenchRun()
    figures: dict[str, Any] = {}
    games = ("lie", "larry") if args.game == "both" else (args.game,)
    for game in games:
        move = MOVES[game]
        with tempfile.TemporaryDirectory(prefix="fairdeal-route-") as data:
            trace = asyncio.run(trace_move(move, Path(data)))
        route = trace.route()
        name = {"lie": "lie_claim", "larry": "larry_doubt"}[game]
        print_route(f"{name}, A's key press to B's screen", route)
        for peer, modules in route.by_peer.items():
            print(f"  run by {peer}'s units: {len(modules)}")
        for module, forwards in route.forwarders().items():
            print(f"  only forwards: {module.removeprefix('fairdeal.')}: " + "; ".join(forwards))
        print(f"  B's screen handled: {', '.join(trace.events)}")
        if args.calls:
            for call in route.calls:
                print(f"    {call}")
        figures[name] = route.figures() | {
            "units_caused": len(trace.units),
            "events_shown": trace.events,
        }
    return run.conclude(figures, args.json)


if __name__ == "__main__":
    sys.exit(main())
