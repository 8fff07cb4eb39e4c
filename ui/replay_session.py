"""A replay as a `TableSession`: the table screens show it as they show a table being played.

The session stands at one frame of a `Replay` (p2p.table.tools.replay). Its events are those the
owner's session emitted up to that frame: the frames before it between `ReplayStarted` and
`ReplayDone` (the screens log them and open no view for them, as for a resumed seat), then the
frame itself (its doubt view, scores or fault open as they did). `advance` moves on by adding the
next frames' events; going back builds a new session at the earlier frame (the screen starts
again on it: it keeps no state that can be taken back). `view()` is the owner's view at the
frame: nothing is played.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.games import AnyGame, get_game
from fairdeal.p2p.table.core.api import (
    EventHistory,
    ReplayDone,
    ReplayStarted,
    SeatInfo,
    TableEvent,
)
from fairdeal.p2p.table.tools.replay import Replay


class ReplaySession:
    def __init__(self, replay: Replay, position: int = 0) -> None:
        if not replay.frames:
            raise ValueError(f"{replay.path}: nothing to replay ({replay.fault})")
        self.replay = replay
        self.game: AnyGame | None = get_game(replay.game)
        self.position = max(0, min(position, len(replay.frames) - 1))
        self._seats: tuple[SeatInfo, ...] | None = None
        self.history = EventHistory()
        self.history.append(ReplayStarted(f"replay of {replay.path.name}…"))
        for frame in replay.frames[: self.position]:
            for event in frame.events:
                self.history.append(event)
        self.history.append(ReplayDone(self._where()))
        for event in replay.frames[self.position].events:
            self.history.append(event)

    def _where(self) -> str:
        return f"step {self.position + 1} of {len(self.replay.frames)}"

    @property
    def seat(self) -> int:
        return self.replay.seat

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        if self._seats is None:  # asked for at every event the screens handle: made once
            replay = self.replay
            self._seats = tuple(
                SeatInfo(name, code, False, s == replay.seat)
                for s, (name, code) in enumerate(zip(replay.names, replay.codes, strict=True))
            )
        return self._seats

    def view(self) -> Any:
        """The owner's view at this frame (the last one before it, for a frame with none)."""
        for frame in reversed(self.replay.frames[: self.position + 1]):
            if frame.view is not None:
                return frame.view
        raise LookupError("no state yet")

    def advance(self, steps: int = 1) -> bool:
        """Move forward by `steps` frames (False at the end: nothing changes)."""
        target = min(self.position + steps, len(self.replay.frames) - 1)
        if target == self.position:
            return False
        for frame in self.replay.frames[self.position + 1 : target + 1]:
            for event in frame.events:
                self.history.append(event)
        self.position = target
        return True

    async def act(self, action: Any) -> None:
        raise IllegalAction(self.seat, "this is a replay: nothing can be played")

    def events(self) -> AsyncIterator[TableEvent]:
        return self.history.replay()

    @property
    def transcript_path(self) -> None:
        """A replay plays no seat: its page is made from the past tables' list (`f`)."""
        return None

    def round_seen(self, round_no: int) -> None:
        """A replay moves only when its player steps it."""

    async def start(self) -> None:
        return None

    async def end_table(self, reason: str) -> None:
        return None

    def end_over_withheld_reveal(self) -> Any:
        raise IllegalAction(self.seat, "this is a replay")

    async def close(self) -> None:
        self.history.close()
