"""What a table does while it sets up (keys, shuffles, deals: the fair deck's requests), in words
every game's screens use; a game adds the words of its own phases."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairdeal.p2p.table.core.api import SeatInfo, SetupProgress

# what the table does while it sets up, and what is done once it has finished, in words
SETUP_DOING = {
    "keys": "exchanging keys",
    "shuffle": "shuffling the deck",
    "deal": "dealing the cards",
    "reveal": "turning cards over",
    "reshuffle": "shuffling the discard pile into a new pick-up pile",
}
SETUP_DONE = {
    "keys": "every seat's keys are in",
    "shuffle": "the deck is shuffled",
    "deal": "the cards are dealt",
    "reveal": "the cards are turned over",
    "reshuffle": "the discard pile is reshuffled",
}


def setup_finished(progress: SetupProgress) -> bool:
    return progress.done >= progress.total and progress.seat is None


def setup_text(
    progress: SetupProgress,
    seats: Sequence[SeatInfo],
    words: Mapping[str, tuple[str, str]] | None = None,
) -> str:
    """What the table is doing while it sets up, in words: "shuffling the deck: Ben done, 2 of
    4 seats · 12 proofs checked"; once finished, what is done ("the cards are dealt"). `words`:
    a game's own phases, each as (doing, done)."""
    own = words or {}
    if setup_finished(progress):
        if progress.phase in own:
            return own[progress.phase][1]
        return SETUP_DONE.get(progress.phase, f"{progress.phase} done")
    text = (
        own[progress.phase][0]
        if progress.phase in own
        else SETUP_DOING.get(progress.phase, progress.phase)
    )
    if progress.done:  # only keys and shuffles count seats as they finish
        who = f"{seats[progress.seat].name} done, " if progress.seat is not None else ""
        text += f": {who}{progress.done} of {progress.total} seats"
    if progress.proofs_verified:
        text += f" · {progress.proofs_verified} proofs checked"
    return text
