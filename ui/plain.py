"""Larry in plain text on stdin/stdout: no Textual, for scripts, screen readers and tests.

Commands at your turn: `p N TOTAL [larry]` plays card N face-down announcing TOTAL; `u N [SEAT]
[GIVE]` plays card N face-up (against SEAT, giving your card GIVE); `d` doubts; `a` lets a player
who went out go (L16); `q` quits.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import TextIO

from engine import AcceptOut, Action, CardKind, Doubt, IllegalAction, PlayFaceDown, PlayFaceUp
from p2p.table_api import DoubtVerification, StateChanged, TableSession
from ui.describe import card_label, direction_text, event_text
from ui.table_factory import TableSpec, open_table

HELP = "p N TOTAL [larry] | u N [SEAT] [GIVE] | d | a | q"


def play_plain(spec: TableSpec, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    return asyncio.run(_play(open_table(spec), stdin or sys.stdin, stdout or sys.stdout))


def parse_command(line: str, hand: list[int]) -> Action | None:
    """An action from a typed command; None means quit. Raises ValueError for nonsense."""
    words = line.split()
    if not words:
        raise ValueError(HELP)
    verb, rest = words[0].lower(), words[1:]
    if verb == "q":
        return None
    if verb == "d":
        return Doubt()
    if verb == "a":
        return AcceptOut()
    larry = bool(rest) and rest[-1].lower() == "larry"
    numbers = [int(word) for word in (rest[:-1] if larry else rest)]
    if not numbers or not 1 <= numbers[0] <= len(hand):
        raise ValueError(f"name a card 1-{len(hand)}")
    slot = hand[numbers[0] - 1]
    if verb == "p" and len(numbers) == 2:
        return PlayFaceDown(slot, numbers[1], larry)
    if verb == "u":
        target = numbers[1] if len(numbers) > 1 else None
        give = hand[numbers[2] - 1] if len(numbers) > 2 else None
        return PlayFaceUp(slot, CardKind.NUMBER, target, give, larry)  # claim fixed by caller
    raise ValueError(HELP)


async def _play(session: TableSession, stdin: TextIO, out: TextIO) -> int:
    say: Callable[[str], None] = lambda text: print(text, file=out, flush=True)  # noqa: E731
    names = [seat.name for seat in session.seats]
    await session.start()
    events = session.events()
    loop = asyncio.get_running_loop()
    try:
        while True:
            view = session.view()
            while not (view.my_turn or view.state.over):
                event = await anext(events)
                if isinstance(event, StateChanged):
                    for engine_event in event.events:
                        line = event_text(engine_event, names, view.deck)
                        if line:
                            say(line)
                elif isinstance(event, DoubtVerification):
                    faces = ", ".join(card_label(view.deck[c.face]) for c in event.cards)
                    say(f"Pile turned over: {faces}.")
                view = session.view()
            if view.state.over:
                return 0
            hand = [slot for slot, _ in view.hand]
            cards = " ".join(
                f"{i + 1}:{card_label(view.deck[f]) if f is not None else '??'}"
                for i, (_, f) in enumerate(view.hand)
            )
            say(
                f"Limit {view.limit} {direction_text(view.direction)}, announced {view.announced},"
                f" pile {view.pile_size}. Your hand: {cards}"
            )
            line = await loop.run_in_executor(None, stdin.readline)
            if not line:
                return 0
            try:
                action = parse_command(line, hand)
                if action is None:
                    return 0
                if isinstance(action, PlayFaceUp):
                    face = dict(view.hand)[action.slot]
                    kind = view.deck[face].kind if face is not None else CardKind.NUMBER
                    action = PlayFaceUp(action.slot, kind, action.target, action.give, action.larry)
                await session.act(action)
            except ValueError as error:
                say(f"? {error}")
            except IllegalAction as error:
                say(f"Not allowed: {error.reason}")
    finally:
        await session.close()
