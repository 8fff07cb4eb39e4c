"""The report page of one transcript, from the replay's frames (p2p.table.tools.replay: the audit's
own pass, one reading of the log): the verdict first, then the table, the timeline, every doubt
card by card with its proofs, the game's own sections and the scores.

Every line of play is the one the replay's story tells (ui/replay_story.py, through the games'
narrators): one source for each text. Private cards: a replay through the owner's eyes (its
secrets in the data directory) shows its own hand; `public` follows the log as an observer, as
a watcher does (protocol.md 4.8), so the page holds no card the table did not open to all.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fairdeal.engine.games import get_game
from fairdeal.p2p.identity import fingerprint_code
from fairdeal.p2p.table.core.api import Notice, Verification
from fairdeal.p2p.table.core.games import table_class
from fairdeal.p2p.table.tools.replay import Replay, load_replay
from fairdeal.ui.replay_story import event_lines, hand_line
from fairdeal.ui.report.chart import score_chart, signed
from fairdeal.ui.report.facts import FileFacts, file_facts
from fairdeal.ui.report.page import Section, esc, render, table
from fairdeal.ui.report.part import ReportPart
from fairdeal.ui.report.verdict import verdict_html
from fairdeal.ui.report.walk import Moment, moments
from fairdeal.ui.screen_game import SCREENS, screen_game
from fairdeal.ui.wording import seat_names


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
        sections += part.sections(replay, names, walk)
        sections.append(_scores(replay, names))
    return render(f"Fairness report: {title}", verdict_html(replay, facts, names), sections)


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
        if isinstance(event, Verification):
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
