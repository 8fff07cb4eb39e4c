"""`fairdeal replay --plain`: the replay's story as text, step by step.

The engine's events are told by the games' own narrators (each game's record, ui/screen_game.py,
`event_text`), the ones the table screens log with; what the fair deck opened is told with its
proof, as the screens mark it (✓ proved, ✗ failed), each card named as the game names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from fairdeal.p2p.table.core.api import (
    CardsVerified,
    FaultDetected,
    Notice,
    ProofStatus,
    SetupProgress,
    StateChanged,
    TableEvent,
    Verification,
)
from fairdeal.p2p.table.tools.replay import Frame, Replay
from fairdeal.ui.replay_bar import bar_text
from fairdeal.ui.screen_game import screen_game

PROOF_MARKS = {
    ProofStatus.VERIFIED: "✓",
    ProofStatus.FAILED: "✗ FAILED",
    ProofStatus.NOT_APPLICABLE: "",
}


def story(replay: Replay) -> Iterator[str]:
    """Every step's heading and lines, from the start to the end."""
    teller = StoryTeller(replay)
    for position in range(len(replay.frames)):
        yield from teller.lines(position)


class StoryTeller:
    """One step's lines at a time (a watcher prints each as it comes)."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.shown_hand = ""

    def lines(self, position: int) -> Iterator[str]:
        replay = self.replay
        frame = replay.frames[position]
        yield f"-- {bar_text(replay, position)}"
        view = frame.view
        for event in frame.events:
            for line in event_lines(replay, event, view, list(replay.names)):
                yield f"   {line}"
        hand = hand_line(replay, frame) if view is not None else ""
        if hand != self.shown_hand:  # the owner's hand and the scores, when they change
            self.shown_hand = hand
            yield f"   {hand}"


def event_lines(replay: Replay, event: TableEvent, view: Any, names: list[str]) -> list[str]:
    game = screen_game(replay.game)
    if isinstance(event, StateChanged) and view is not None:
        lines = []
        for engine_event in event.events:
            line = game.event_text(engine_event, names, view)
            if line:
                lines.append(line)
        return lines
    if isinstance(event, CardsVerified) and view is not None:
        fronts = " ".join(
            f"{game.card_text(view, c.face)}{PROOF_MARKS[c.proof]}" for c in event.cards
        )
        if not fronts:
            return []
        whose = "their prizes" if event.reason == "prizes" else event.reason
        return [f"opened ({whose} of {names[event.seat]}): {fronts}"]
    if isinstance(event, Verification) and view is not None:
        return [event.story(names, partial(game.card_text, view), PROOF_MARKS.__getitem__)]
    if isinstance(event, FaultDetected):
        return [f"FAULT by {names[event.seat]}: {event.what} ({event.evidence})"]
    if isinstance(event, SetupProgress):
        if event.done >= event.total and event.total:
            return [
                f"setup: every seat's {event.phase} is done ({event.proofs_verified} proofs ok)"
            ]
        return []
    if isinstance(event, Notice):
        return [event.text]
    return []


def hand_line(replay: Replay, frame: Frame) -> str:
    """The owner's hand as it saw it: fronts it knew, backs (▒) for the rest."""
    view = frame.view
    seat = replay.seat
    slots = view.state.hands[seat]
    game = screen_game(replay.game)
    shown = [game.card_text(view, view.knowledge[s]) if s in view.knowledge else "▒" for s in slots]
    scores = ", ".join(f"{replay.names[s]} {v}" for s, v in enumerate(view.state.scores))
    return f"{replay.names[seat]}'s hand: {' '.join(shown) or '(empty)'} · scores: {scores}"
