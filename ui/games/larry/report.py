"""Every doubt of a table, card by card (L9, L16): what was said, each card turned with who
played it and its decryption shares' proof, the deck's shuffle chain, and the verdict. The
doubts are the presenters' `DoubtVerification` table events, as the table screens show them.
Larry's part of its report page (ui/report/part.py): the section after the shared timeline."""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.core.api import SetupProgress
from fairdeal.p2p.table.tools.replay import Frame, Replay
from fairdeal.ui.replay_story import PROOF_MARKS
from fairdeal.ui.report.page import Section, esc, table
from fairdeal.ui.report.part import ReportPart
from fairdeal.ui.report.walk import Moment
from fairdeal.ui.screen_game import screen_game

PROOF_WORDS = {mark: f"{sign} {mark.value}" for mark, sign in PROOF_MARKS.items()}


class LarryReportPart(ReportPart):
    """The shared timeline by hands, then every doubt card by card."""

    def sections(
        self, replay: Replay, names: Sequence[str], moments: Sequence[Moment]
    ) -> list[Section]:
        return [doubts_section(replay, list(names), moments)]


def doubts_section(replay: Replay, names: list[str], walk: Sequence[Moment]) -> Section:
    unit = screen_game(replay.game).unit
    found = 0
    parts = []
    shuffled: dict[int, list[str]] = {}  # round -> the seats that shuffled its decks, in order
    for moment in walk:
        event, frame = moment.event, moment.frame
        if isinstance(event, SetupProgress) and event.phase in ("shuffle", "reshuffle"):
            chain = shuffled.setdefault(moment.round, [])
            if event.seat is not None and event.done > 0:
                chain.append(names[event.seat])
        if not isinstance(event, DoubtVerification) or frame.view is None:
            continue
        found += 1
        chain = shuffled.get(moment.round, [])
        parts.append(_doubt(found, event, moment.round, frame, replay, names, chain))
    if not found:
        return Section("doubts", "Doubts", "<p>Nobody doubted at this table.</p>")
    intro = (
        f"<p>{found} doubt(s). Each card of the pile was turned over by decryption shares "
        f"from every seat, each share with its proof (Chaum–Pedersen, protocol.md 6.5); the "
        f"deck it came from was shuffled by every seat in turn, each shuffle with its proof "
        f"(protocol.md 6.4). {unit.capitalize()} numbers as in the timeline.</p>"
    )
    return Section("doubts", "Doubts, card by card", intro + "".join(parts))


def _doubt(
    number: int,
    event: DoubtVerification,
    round_no: int,
    frame: Frame,
    replay: Replay,
    names: list[str],
    chain: list[str],
) -> str:
    game = screen_game(replay.game)
    view = frame.view
    verdict = "right" if event.correct else "wrong"
    rows = []
    for index, card in enumerate(event.cards):
        said = str(event.said[index]) if index < len(event.said) else "—"
        rows.append(
            [
                str(index + 1),
                esc(names[card.seat]),
                esc(said),
                "face up" if card.face_up else "face down",
                esc(game.card_text(view, card.face)),
                esc(PROOF_WORDS[card.proof]),
            ]
        )
    seats = ", ".join(dict.fromkeys(chain))
    shuffle = (
        f"✓ verified: shuffled in turn by {seats}, every shuffle's proof checked"
        if chain
        else "✓ verified by the audit (no shuffle recorded in this replay's frames)"
    )
    return (
        f"<div class='doubt' id='doubt-{number}'><h3>Doubt {number} "
        f"({esc(game.unit)} {round_no}): {esc(names[event.doubter])} doubted "
        f"{esc(names[event.last_player])}</h3>"
        f"<p>Said: <strong>{esc(event.announced)}</strong>. True total of the pile: "
        f"<strong>{esc(event.true_total)}</strong>"
        + (f" with {event.gloats} gloat card(s)" if event.gloats else "")
        + f". The total was <strong>{verdict}</strong>; "
        f"<strong>{esc(names[event.loser])}</strong> picks up.</p>"
        + table(
            ["#", "Played by", "Total said", "Played", "Card turned", "Decryption shares"],
            rows,
        )
        + f"<p>Shuffle chain of this deck: {esc(shuffle)}</p></div>"
    )
