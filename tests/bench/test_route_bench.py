"""bench/route.py: the counting rule on a made-up route, and the tracer on a real networked
table (two apps over loopback in one process) finding the route to the other peer's screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

M = "fairdeal."


def fake_units(bench: ModuleType) -> list[object]:
    """0 (A's key press) causes 1 (A sends) and 4 (A's own redraw, after the send); 1's bytes
    reach B's reader 2, which causes B's screen 3; 5 is a heartbeat the press did not cause."""
    unit = bench.Unit
    return [
        unit(
            "A",
            0,
            [],
            0,
            [
                (1, M + "ui.keys", "press", ""),
                (2, M + "p2p.session", "act", M + "ui.keys:press"),
                (3, M + "engine.rules", "apply", M + "p2p.session:act"),
                (9, M + "ui.redraw", "draw", M + "ui.keys:press"),  # after its last cause
            ],
        ),
        unit("A", 1, [(0, 3)], 0, [(4, M + "p2p.mesh", "send", "")]),
        unit(
            "B",
            2,
            [(1, 4)],
            1,
            [
                (5, M + "p2p.mesh", "read", ""),
                (6, M + "p2p.forward", "on_frame", M + "p2p.mesh:read"),
                (7, M + "p2p.session", "emit", M + "p2p.forward:on_frame"),
            ],
        ),
        unit("B", 3, [(2, 7)], 1, [(8, M + "ui.screen", "show", "")]),
        unit("A", 4, [(0, 9)], 0, [(10, M + "ui.widget", "render", "")]),
        unit("B", 5, [], 0, [(11, M + "p2p.heartbeat", "tick", "")]),
    ]


def test_the_route_is_what_caused_the_screen_in_order_of_first_entry(
    load_bench: Callable[[str], ModuleType],
) -> None:
    bench = load_bench("route")
    units = [u for u in fake_units(bench) if u.number >= 0]
    route = bench.count_route(units, {3})
    assert route.modules == [
        M + "ui.keys",
        M + "p2p.session",
        M + "engine.rules",
        M + "p2p.mesh",
        M + "p2p.forward",
        M + "ui.screen",
    ]  # not A's own redraw (after its last cause, or in unit 4), not the heartbeat
    assert len(route.calls) == 8  # p2p.session's act and emit, each once
    assert route.members == frozenset({0, 1, 2, 3})
    assert route.by_layer() == {
        "engine": [M + "engine.rules"],
        "p2p": [M + "p2p.session", M + "p2p.mesh", M + "p2p.forward"],
        "ui": [M + "ui.keys", M + "ui.screen"],
    }
    assert route.by_peer["B"] == [
        M + "p2p.mesh",
        M + "p2p.forward",
        M + "p2p.session",
        M + "ui.screen",
    ]
    assert (M + "p2p.forward", M + "p2p.session") in route.crossings()
    assert route.forwarders() == {
        M + "ui.keys": [f"press -> {M}p2p.session:act"],  # its draw came after: not counted
        M + "p2p.forward": [f"on_frame -> {M}p2p.session:emit"],
    }  # p2p.session's act forwards, but its emit is a leaf
    figures = route.figures()
    assert figures["modules"] == 6 and figures["by_layer"] == {"engine": 1, "p2p": 3, "ui": 2}


def test_showing_takes_the_screen_unit_and_the_drawing_it_caused(
    load_bench: Callable[[str], ModuleType],
) -> None:
    bench = load_bench("route")
    units = fake_units(bench)
    units.append(bench.Unit("B", 6, [(3, 8)], 1, [(12, M + "ui.widget", "render", "")]))
    units.append(bench.Unit("B", 7, [(3, 8)], 1, [(13, M + "p2p.log", "flush", "")]))
    assert bench.showing(units, 3, "B") == {3, 6}  # not the flush: no ui code
    route = bench.count_route(units, bench.showing(units, 3, "B"))
    assert route.modules[-1] == M + "ui.widget" and M + "p2p.log" not in route.modules


P2P = """
def handle(data, shown):
    shown.put_nowait(Frame(data))

class Frame:
    def __init__(self, data):
        self.data = data

async def reader_loop(reader, shown):
    while data := await reader.read(100):
        handle(data, shown)
"""
UI = """
def press(writer):
    writer.write(b"the claim, signed")

async def screen(shown, done):
    while True:
        show(await shown.get(), done)

def show(frame, done):
    done.set_result(frame.data)
"""
BEAT = """
def tick(ticks):
    ticks.append(1)
"""


def module(name: str, source: str) -> dict[str, object]:
    """Functions whose frames say they are fairdeal's module `name`."""
    namespace: dict[str, object] = {"__name__": name}
    exec(compile(source, f"<{name}>", "exec"), namespace)
    return namespace


async def test_the_tracer_follows_a_queue_and_a_socket_but_not_a_heartbeat(
    load_bench: Callable[[str], ModuleType],
) -> None:
    """A press writes to a loopback socket; the reader's task queues what it read for a screen
    task; a heartbeat ticks all the while. The route is the press, the reader and the screen,
    one socket crossing; the heartbeat, which the press did not cause, is not on it."""
    import asyncio

    bench = load_bench("route")
    p2p, ui, beat = (
        module(M + "p2p.fake", P2P),
        module(M + "ui.fake", UI),
        module(M + "p2p.beat", BEAT),
    )
    shown: asyncio.Queue[object] = asyncio.Queue()
    done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
    ticks: list[int] = []
    accepted: asyncio.Future[asyncio.StreamReader] = asyncio.get_running_loop().create_future()

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(reader)

    async def heartbeat() -> None:
        while True:
            beat["tick"](ticks)  # type: ignore[operator]
            await asyncio.sleep(0)  # every turn of the loop: it runs inside the window

    server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    reader = await accepted
    tasks = [
        asyncio.ensure_future(p2p["reader_loop"](reader, shown)),  # type: ignore[operator]
        asyncio.ensure_future(ui["screen"](shown, done)),  # type: ignore[operator]
        asyncio.ensure_future(heartbeat()),
    ]
    tracer = bench.CausalTracer(lambda handle: "")
    try:
        with tracer.installed():
            tracer.until = done.done
            tracer.on = True
            tracer.press("A")
            ticked = len(ticks)
            ui["press"](writer)  # type: ignore[operator]
            await asyncio.wait_for(done, 10)  # the unit that showed it has ended: `until` ran
            tracer.on = False
    finally:
        for task in tasks:
            task.cancel()
        writer.close()
        server.close()
    assert len(ticks) > ticked and done.result() == b"the claim, signed"
    reached = tracer.reached
    assert reached is not None and reached.number >= 0 and reached.hops == 1
    route = bench.count_route(tracer.units, {reached.number})
    assert route.modules == [M + "ui.fake", M + "p2p.fake"]
    assert route.calls == [
        M + "ui.fake:press",
        M + "p2p.fake:reader_loop",
        M + "p2p.fake:handle",
        M + "p2p.fake:Frame.__init__",
        M + "ui.fake:screen",
        M + "ui.fake:show",
    ]
    caused = {call[1] for unit in tracer.units for call in unit.calls}
    assert M + "p2p.beat" not in caused  # it ran meanwhile, uncaused


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", ["lie", "larry"])
async def test_a_networked_move_reaches_the_other_screen_through_every_layer(
    load_bench: Callable[[str], ModuleType], tmp_path: Path, game: str
) -> None:
    bench = load_bench("route")
    trace = await bench.trace_move(bench.MOVES[game], tmp_path)
    route = trace.route()
    layers = route.by_layer()
    assert all(layers[layer] for layer in ("engine", "p2p", "ui")), layers
    assert any(m.startswith(M + "ui.") for m in route.by_peer["B"])  # B's screen showed it
    assert any(m.startswith(M + "ui.") for m in route.by_peer["A"])  # A's key press began it
    assert any(unit.hops >= 1 for unit in trace.units if unit.number in route.members)
    assert "StateChanged" in trace.events
