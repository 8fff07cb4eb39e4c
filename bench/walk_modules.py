"""Which of fairdeal's modules one key press passes through on its way to the screen.

A local table (one human, bots with no delay) is driven by Textual's Pilot; the profiler records
every fairdeal module entered from the key press until the screen has shown the result. Run:
    python bench/walk_modules.py            (a Lie claim, Enter, and a Larry doubt, d)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.player import Player
from fairdeal.ui.table_finder import FixedFinder

PLAYER = Player("Tess", "01234 56789 13579 24680 11223", "0123456789abcdef")


class Tracer:
    def __init__(self) -> None:
        self.modules: set[str] = set()
        self.on = False

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        if self.on and event == "call":
            name = frame.f_globals.get("__name__", "")
            if name.startswith("fairdeal."):
                self.modules.add(name)


async def settle(pilot: Any, table: Any) -> None:
    await table.wait_idle()
    for _ in range(5):
        await pilot.pause()


def can(view: Any, flag: str) -> bool:
    return bool(getattr(view, flag, False))


async def walk(game: str, key: str, ready: str, seed: int) -> list[str]:
    table = LocalTable(4, game=game, seed=seed, human_name=PLAYER.name)
    app = FairdealApp(PLAYER, session=table, finder=FixedFinder(), reveal_interval=0)
    tracer = Tracer()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, table)
        for _ in range(200):
            if ready_now(table.view(), ready):
                break
            await pilot.press(*nudge(game))
            await settle(pilot, table)
        else:
            raise SystemExit(f"{game}: never ready to press {key!r}")
        sys.setprofile(tracer)
        threading_setprofile(tracer)
        tracer.on = True
        await pilot.press(key)
        await settle(pilot, table)
        tracer.on = False
        sys.setprofile(None)
    return sorted(tracer.modules)


def threading_setprofile(tracer: Tracer) -> None:
    import threading

    threading.setprofile(tracer)


def ready_now(view: Any, ready: str) -> bool:
    if ready == "claim":
        return can(view, "can_claim")
    return any(type(a).__name__ == "Doubt" for a in legal(view))


def legal(view: Any) -> tuple[Any, ...]:
    from fairdeal.engine.games import get_game

    game = get_game("larry")
    try:
        return game.legal_actions(view)
    except Exception:
        return ()


def nudge(game: str) -> tuple[str, ...]:
    # Larry: play the selected card face down, so that play moves on to a doubt chance.
    return ("enter",)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    lie = asyncio.run(walk("lie", "enter", "claim", args.seed))
    larry = asyncio.run(walk("larry", "d", "doubt", args.seed))
    figures = {"lie_claim": lie, "larry_doubt": larry}
    for name, modules in figures.items():
        print(f"{name}: {len(modules)} modules")
        for module in modules:
            print(f"  {module}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=1)


if __name__ == "__main__":
    main()
