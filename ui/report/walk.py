"""The replay's frames as moments: each table event, and each engine event of a state change on
its own, with the hand or round and the trick it falls in. A frame is cut where the log applied
something a player sees, so one frame may end a round and begin the next: the page's headings
follow the game's own marks (p2p.table.core.presenter, `Mark`), event by event."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from fairdeal.p2p.table.core.api import StateChanged, TableEvent
from fairdeal.p2p.table.core.presenter import Mark, presenter_for
from fairdeal.p2p.table.tools.replay import Frame, Replay


@dataclass(frozen=True)
class Moment:
    round: int  # hands (Larry) or rounds (The Lie) begun so far
    trick: int  # tricks begun in this round (0: none, or a game without tricks)
    frame: Frame
    event: TableEvent  # a state change holds just the one engine event `happened`
    happened: object | None = None  # the engine event of a state change
    last: bool = False  # the frame's last moment


def moments(replay: Replay) -> Iterator[Moment]:
    mark = presenter_for(replay.game).mark
    round_no = trick = 0
    for frame in replay.frames:
        found: list[Moment] = []
        for event in frame.events:
            if not isinstance(event, StateChanged):
                found.append(Moment(round_no, trick, frame, event))
                continue
            for happened in event.events:
                begins = mark(happened)
                if begins is Mark.ROUND:
                    round_no, trick = round_no + 1, 0
                elif begins is Mark.TRICK:
                    trick += 1
                one = StateChanged(event.state, (happened,))
                found.append(Moment(round_no, trick, frame, one, happened))
        if found:
            tail = found[-1]
            found[-1] = Moment(tail.round, tail.trick, frame, tail.event, tail.happened, True)
        yield from found
