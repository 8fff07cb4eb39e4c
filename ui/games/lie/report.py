"""The Lie's part of its `fairdeal report` page (ui/report/): the timeline by round and phase,
each round's Phase 1 race (its steps, the ties its seeds decided, the void claims, who was
"Done!" first, T3) and every trick of Phase 2 with the proofs of the fronts played (T5).

The lines are the narrator's (ui/games/lie/narrator.py), as the table and the replay say them;
no front of a claim is shown here (a claimed card is its claimer's alone, T3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.engine.lie import events as ev
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.p2p.table.core.api import CardsVerified, TableEvent, combined_proof
from fairdeal.p2p.table.tools.replay import Replay
from fairdeal.ui.games.lie.narrator import claim_void_text, lie_event_text
from fairdeal.ui.games.lie.widgets.cards import back_label, letters_for
from fairdeal.ui.replay_story import PROOF_MARKS
from fairdeal.ui.report.page import Section, esc, listing, table
from fairdeal.ui.report.part import ReportPart
from fairdeal.ui.report.walk import Moment


@dataclass
class _Race:
    done: list[str] = field(default_factory=list)  # "Done!" and full hands, in order
    void: list[str] = field(default_factory=list)
    # (slot, winner) -> the card's back and the claimers who lost the tie to the step's seed
    tied: dict[tuple[int, int], tuple[str, list[str]]] = field(default_factory=dict)


@dataclass
class _Trick:
    number: int
    leader: str
    plays: list[str] = field(default_factory=list)
    winner: str = ""


class LieReportPart(ReportPart):
    def heading(self, round_no: int, trick: int, unit: str) -> str:
        if not round_no:
            return "Setup"
        if not trick:
            return f"Round {round_no} · Phase 1: the race (T3)"
        return f"Round {round_no} · Phase 2, trick {trick} (T5)"

    def line(self, event: TableEvent, view: Any, names: Sequence[str]) -> str | None:
        if isinstance(event, ClaimVoid):  # the shared story says seat and slot numbers
            letters = letters_for(view.options.colour_names)
            return claim_void_text(event, names, view.state.backs, letters)
        return None

    def sections(
        self, replay: Replay, names: Sequence[str], moments: Sequence[Moment]
    ) -> list[Section]:
        races: dict[int, _Race] = {}
        tricks: dict[int, list[_Trick]] = {}
        said = list(names)
        plays: list[CardsVerified] = []  # fronts opened for the play told next
        for moment in moments:
            event, view = moment.event, moment.frame.view
            if view is None or not moment.round:
                continue
            race = races.setdefault(moment.round, _Race())
            if isinstance(event, CardsVerified) and event.reason == "play":
                plays.append(event)
            if isinstance(event, ClaimVoid):
                race.void.append(self.line(event, view, said) or event.text)
                if event.winner is not None:
                    card = _back(view, event.slot)
                    race.tied.setdefault((event.slot, event.winner), (card, []))[1].append(
                        said[event.seat]
                    )
            happened = moment.happened
            if happened is None:
                continue
            colours = view.options.colour_names
            line = lie_event_text(happened, said, letters_for(colours), colours)
            played = tricks.setdefault(moment.round, [])
            if isinstance(happened, ev.HandComplete):
                race.done.append(line)
            elif isinstance(happened, ev.TrickStarted):
                played.append(_Trick(happened.trick, said[happened.leader]))
            elif isinstance(happened, ev.Played | ev.Passed) and played:
                proof = ""
                if isinstance(happened, ev.Played) and plays:
                    status = combined_proof(card.proof for card in plays.pop(0).cards)
                    proof = f" ({PROOF_MARKS[status]} shares)" if status else ""
                played[-1].plays.append(line + proof)
            elif isinstance(happened, ev.TrickWon) and played:
                played[-1].winner = line
        return [_races(races, replay.report.counters, said), _tricks(tricks)]


def _back(view: Any, slot: int) -> str:
    """A card by its public back ("the r4"), or its slot when the view no longer holds it."""
    try:
        return f"the {back_label(view.state.backs[slot], letters_for(view.options.colour_names))}"
    except (IndexError, KeyError):
        return f"slot {slot}"


def _races(races: dict[int, _Race], counters: dict[str, int], names: Sequence[str]) -> Section:
    parts = [
        "<p>Phase 1 is a race in steps (protocol.md 10.11): every seat commits to its claim, "
        "opens it a step later, and a step's seed, hashed from every opening, decides the ties "
        '(two claims of one card in one step) and the order of the "Done!" calls.</p>'
    ]
    for number, race in sorted(races.items()):
        if not number:
            continue
        steps = counters.get(f"steps_round_{number}")
        ties = [
            f"{card}: claimed in one step by {', '.join(lost)} and {names[winner]}; the step's "
            f"seed gave it to {names[winner]} (T3)"
            for (_slot, winner), (card, lost) in race.tied.items()
        ]
        parts.append(
            f"<h3>Round {number}</h3><p>{'?' if steps is None else steps} steps; "
            f"{len(ties)} tie(s) decided by the step's seed; {len(race.void)} void claim(s).</p>"
            + listing(esc(line) for line in race.done + ties + race.void)
        )
    return Section("races", "Phase 1 races", "".join(parts))


def _tricks(tricks: dict[int, list[_Trick]]) -> Section:
    parts = []
    for number, played in sorted(tricks.items()):
        rows = [
            [
                str(trick.number),
                esc(trick.leader),
                "<br>".join(esc(p) for p in trick.plays),
                esc(trick.winner),
            ]
            for trick in played
        ]
        parts.append(table(["Trick", "Leader", "Plays", "Won"], rows, f"Round {number}"))
    body = "".join(parts) or "<p>No trick was played.</p>"
    return Section("tricks", "Tricks", body)
