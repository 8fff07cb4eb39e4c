"""The report page of one transcript, from the replay's frames (p2p.table.replay: the audit's
own pass, one reading of the log): the verdict first, then the table, the timeline, every doubt
card by card with its proofs, the game's own sections and the scores.

Every line of play is the one the replay's story tells (ui/replay_story.py, through the games'
narrators): one source for each text. Private cards: a replay through the owner's eyes (its
secrets in the data directory) shows its own hand; `public` follows the log as an observer, as
a watcher does (protocol.md 4.8), so the page holds no card the table did not open to all.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairdeal.engine.games import get_game
from fairdeal.p2p.identity import fingerprint_code
from fairdeal.p2p.table.api import DoubtVerification, Notice, SetupProgress
from fairdeal.p2p.table.audit import AuditFault
from fairdeal.p2p.table.games import table_class
from fairdeal.p2p.table.replay import Frame, Replay, load_replay
from fairdeal.ui.replay_story import PROOF_MARKS, event_lines, hand_line
from fairdeal.ui.report.chart import score_chart, signed
from fairdeal.ui.report.page import Section, esc, render, table
from fairdeal.ui.report.part import ReportPart
from fairdeal.ui.report.walk import Moment, moments
from fairdeal.ui.screen_game import SCREENS, screen_game
from fairdeal.ui.wording import seat_names

PROOF_WORDS = {mark: f"{sign} {mark.value}" for mark, sign in PROOF_MARKS.items()}


@dataclass(frozen=True)
class FileFacts:
    """What two friends compare to know they hold the same file."""

    path: Path
    size: int
    sha256: str


def file_facts(path: Path) -> FileFacts:
    with open(path, "rb") as file:
        digest = hashlib.file_digest(file, "sha256").hexdigest()
    return FileFacts(path, path.stat().st_size, digest)


def make_report(path: Path, data: Path | None, public: bool) -> tuple[Replay, str]:
    """Audit `path` (replaying it through the owner's eyes when `data` holds its secrets and
    the page is not `public`) and render its page. CannotReplay: not a transcript."""
    replay = load_replay(path, None if public else data)
    return replay, render_report(replay, file_facts(path), public)


def render_report(replay: Replay, facts: FileFacts, public: bool) -> str:
    names = list(replay.names)
    game = _game_name(replay)
    title = f"{_title(game)} at {len(names)} seats — {facts.path.name}"
    sections = [_table_section(replay, facts, game, public)]
    if replay.frames and game and game not in SCREENS.names():
        # a game installed without its app part: nothing here can tell its moves or cards
        said = f"<p>The game {esc(game)} has no app part installed to tell its moves.</p>"
        sections += [Section("timeline", "Timeline", said), _scores(replay, names)]
    elif replay.frames and game:
        part = _part(game)
        walk = list(moments(replay))
        sections.append(_timeline(replay, part, names, public, walk))
        if part.has_doubts:
            sections.append(_doubts(replay, names, walk))
        sections += part.sections(replay, names, walk)
        sections.append(_scores(replay, names))
    return render(f"Fairness report: {title}", _verdict(replay, facts, names), sections)


# -- the verdict ---------------------------------------------------------------------------------


def verdict_words(replay: Replay) -> str:
    """The verdict's first words: VERIFIED, VERIFIED SO FAR — INCOMPLETE, or NOT VERIFIED."""
    report = replay.report
    if report.fault is not None:
        return "✗ NOT VERIFIED"
    if report.incomplete:
        return "… VERIFIED SO FAR — INCOMPLETE"
    return "✓ VERIFIED"


def _verdict(replay: Replay, facts: FileFacts, names: Sequence[str]) -> str:
    report, fault = replay.report, replay.report.fault
    words = verdict_words(replay)
    if fault is not None:
        return (
            f"<div class='verdict bad' role='alert'><h2>{esc(words)}</h2>"
            f"{_fault_lines(fault, names, facts)}</div>"
        )
    torn = (
        f" The last {report.ignored_bytes} byte(s) of the file are a torn record (a crash's "
        "tail, or bytes added to the file) and were left out."
        if report.ignored_bytes
        else ""
    )
    if report.incomplete:
        stops = facts.size - report.ignored_bytes
        return (
            f"<div class='verdict partial'><h2>{esc(words)}</h2><p>Everything up to where the "
            f"log stops checks out, but the game is not over: the log stops after entry "
            f"{report.entries} (byte {stops} of {facts.size}).{esc(torn)}</p>"
            f"<p class='dim'>fairdeal audit: {esc(report.result_text())}</p></div>"
        )
    winners = " and ".join(names[w] for w in report.winners) or "nobody"
    return (
        f"<div class='verdict ok'><h2>{esc(words)}</h2><p>This is exactly a game played by the "
        f"rules: every signature, every shuffle and every decryption share checks out, and "
        f"every move was legal. Winner: <strong>{esc(winners)}</strong>.{esc(torn)}</p>"
        f"<p class='dim'>fairdeal audit: {esc(report.result_text())}</p></div>"
    )


def _fault_lines(fault: AuditFault, names: Sequence[str], facts: FileFacts) -> str:
    culprit = (
        f"{names[fault.seat]} (seat {fault.seat})"
        if fault.seat is not None and fault.seat < len(names)
        else "the file itself"
    )
    who = (
        f"<p><strong>{esc(fault.verdict)}</strong> by <strong>{esc(culprit)}</strong>: "
        f"{esc(fault.what)}</p>"
        if fault.blames
        else f"<p><strong>{esc(fault.verdict)}</strong>: a record signed by {esc(culprit)} does "
        "not verify (altered after signing, or forged): nothing proves that seat cheated.</p>"
    )
    where = []
    if fault.entry is not None:
        where.append(f"entry {fault.entry}")
    if fault.offset is not None:
        where.append(f"byte offset {fault.offset}")
    place = ", ".join(where) or "the file as a whole"
    rules = ", ".join(citations(fault))
    return (
        f"{who}<p>Evidence: <code>{esc(fault.evidence)}</code></p>"
        f"<p>Where: {esc(place)} of <code>{esc(facts.path.name)}</code></p>"
        f"<p>Rule: {esc(rules)}</p>"
    )


# Where protocol.md says what a fault of each kind breaks, by the words of its `what`.
_SECTIONS = (
    (("signature", "altered", "forged"), "protocol.md 4.2 (envelope signatures)"),
    (("another table",), "protocol.md 4.4 (receiving an envelope: this table's id)"),
    (("equivocation",), "protocol.md 4.4 (one envelope per place)"),
    (("damaged", "header", "record", "transcript", "version"), "protocol.md 4.7 (transcript)"),
    (("missing", "out of order", "not the next"), "protocol.md 4.5 (ordering)"),
    (("roster",), "protocol.md 5.5 (the signed roster)"),
    (("terms", "join"), "protocol.md 10.2 (setup)"),
    (("proof", "share", "shuffle", "key"), "protocol.md 6.7 (fair-deck faults)"),
)
_RULING = re.compile(r"\b[LT]\d{1,2}\b")
_PROTOCOL = re.compile(r"protocol\.md \d+(?:\.\d+)*")


def citations(fault: AuditFault) -> list[str]:
    """The rules (RULES.md ids) and protocol.md sections the fault names, else the section its
    kind breaks; always ending with the audit's own section."""
    text = f"{fault.what} {fault.evidence}"
    found = list(dict.fromkeys(_RULING.findall(text) + _PROTOCOL.findall(text)))
    if not found:
        what = fault.what.lower()
        found = [ref for words, ref in _SECTIONS if any(w in what for w in words)][:1]
        found = found or ["protocol.md 10.4 (checks and faults)"]
    return [*found, "protocol.md 10.7 (audit)"]


# -- the table -----------------------------------------------------------------------------------


def _table_section(replay: Replay, facts: FileFacts, game: str, public: bool) -> Section:
    report = replay.report
    terms = _terms(replay, game)
    rows = []
    for seat, name in enumerate(replay.names):
        code = replay.codes[seat] if seat < len(replay.codes) else ""
        if not code and seat < len(replay.keys):  # no signed roster: the header's key
            code = fingerprint_code(replay.keys[seat])
        key = report.roster[seat] if seat < len(report.roster) else ""
        owner = " (this transcript's owner)" if seat == replay.seat else ""
        rows.append([str(seat), esc(name) + esc(owner), f"<span class='mono'>{esc(code)}</span>",
                     f"<code>{esc(key)}</code>"])  # fmt: skip
    if report.fault is not None:
        eyes = "None shown: a file that does not verify shows nothing past its verdict."
    elif public:
        eyes = "Made with --public: no private card is shown, only what every seat and any "
        eyes += "watcher saw opened."
    elif replay.own_eyes:
        eyes = f"Shown through {replay.names[replay.seat]}'s own eyes: its own hand is shown "
        eyes += "(its secrets were in the data directory); nobody else's private cards."
    else:
        eyes = "Shown as an observer (the owner's secrets were not found): public cards only."
    facts_rows = [
        ["Game", esc(_title(game) or "unknown (the log does not say)")],
        ["Terms", esc(", ".join(f"{k} = {v}" for k, v in sorted(terms.items())) or "—")
         + ("" if replay.signed else " <span class='dim'>(no signed roster)</span>")],
        ["Table id", f"<code>{esc(report.table.hex())}</code>"],
        ["Transcript", f"<code>{esc(facts.path.name)}</code>, {facts.size:,} bytes"
         + ("" if report.fault else f", {report.entries} entries")],
        ["SHA-256", f"<code>{esc(facts.sha256)}</code>"],
        ["Private cards", esc(eyes)],
    ]  # fmt: skip
    body = table(["", ""], facts_rows) + table(["Seat", "Player", "Key code", "Key"], rows)
    return Section("table", "The table", body)


def _terms(replay: Replay, game: str) -> dict[str, Any]:
    """The terms every seat signed in the lobby, else those the game was played with (seat 0's
    join), as the lobby shows them."""
    if replay.signed is not None:
        return dict(replay.signed.roster.options_dict)
    view = replay.frames[-1].view if replay.frames else None
    if view is None or not game:
        return {}
    return dict(table_class(game).lobby_options(view.state.options))


# -- the timeline --------------------------------------------------------------------------------


def _timeline(
    replay: Replay, part: ReportPart, names: list[str], public: bool, walk: Sequence[Moment]
) -> Section:
    unit = screen_game(replay.game).unit
    groups: list[tuple[str, list[str]]] = []
    doubt = 0
    shown_hand = ""
    for moment in walk:
        heading = part.heading(moment.round, moment.trick, unit)
        if not groups or groups[-1][0] != heading:
            groups.append((heading, []))
        lines = groups[-1][1]
        event, view = moment.event, moment.frame.view
        own = part.line(event, view, names) if view is not None else None
        if own is not None:
            told = [own]
        elif isinstance(event, Notice):  # "seat 2" is a name to players, as the tables say
            told = [seat_names(event.text, names)]
        else:
            told = event_lines(replay, event, view, names)
        lines += [esc(line) for line in told]
        if isinstance(event, DoubtVerification):
            doubt += 1
            lines.append(f"<a href='#doubt-{doubt}'>→ doubt {doubt}, card by card</a>")
        if moment.last and replay.own_eyes and not public and view is not None:
            hand = hand_line(replay, moment.frame)
            if hand != shown_hand:  # the owner's own hand, when it changes
                shown_hand = hand
                lines.append(f"<span class='dim'>{esc(hand)}</span>")
    body = "".join(
        f"<details open><summary><h3>{esc(heading)}</h3></summary>"
        f"<ol class='moves'>{''.join(f'<li>{x}</li>' for x in lines)}</ol></details>"
        for heading, lines in groups
        if lines
    )
    return Section("timeline", "Timeline", body)


# -- the doubts ----------------------------------------------------------------------------------


def _doubts(replay: Replay, names: list[str], walk: Sequence[Moment]) -> Section:
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


# -- the scores ----------------------------------------------------------------------------------


def _scores(replay: Replay, names: list[str]) -> Section:
    report = replay.report
    if not report.scores:
        return Section("scores", "Scores", "<p>No score yet.</p>")
    winners = [names[w] for w in report.winners]
    said = (
        f"<p>Winner(s): <strong>{esc(' and '.join(winners))}</strong>.</p>"
        if winners
        else "<p>No winner yet: the game is not over.</p>"
    )
    rows = [
        [esc(name), esc(signed(score)), "★ winner" if seat in report.winners else ""]
        for seat, (name, score) in enumerate(zip(names, report.scores, strict=True))
    ]
    body = said + score_chart(names, report.scores, report.winners)
    return Section("scores", "Scores", body + table(["Player", "Score", ""], rows))


# -- the game ------------------------------------------------------------------------------------


def _game_name(replay: Replay) -> str:
    """The game the log names (seat 0's join), else the one the signed roster names."""
    if replay.game:
        return replay.game
    return replay.signed.roster.game if replay.signed is not None else ""


def _title(game: str) -> str:
    try:
        return get_game(game).title if game else ""
    except ValueError:
        return game


def _part(game: str) -> ReportPart:
    make = screen_game(game).report_part
    return make() if make is not None else ReportPart()


__all__ = ["FileFacts", "file_facts", "make_report", "render_report", "verdict_words"]
