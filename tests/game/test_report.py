"""`fairdeal report`: the page of a verified game of each game says so first, names the players
(escaped: a name is whatever a player typed), lists every doubt card by card with its proofs and
charts the scores; a tampered copy gives exit 1 and a page that says NOT verified and why, first;
a file that is not a transcript gives one line and no page; an existing page is kept without
--force; a `--public` page shows exactly what a watcher's copy of the log shows (protocol.md
4.8), while the owner's page shows its own hand besides."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fairdeal.engine.lie.options import LieOptions
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.table.tools.audit import audit_transcript
from fairdeal.ui.cli import main

from . import browser, support
from .records import applied_indices, read_records, seat_of, write_records

HOSTILE = '<script>alert(1)</script> & "Bo"'  # a player's chosen name, seat 1


def _hostile_identity(index: int) -> Identity:
    name = HOSTILE if index == 1 else f"peer{index}"
    return Identity.generate(name, lambda n: bytes([index + 1]) * n)


@pytest.fixture(scope="module")
def larry_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("larry")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(support, "identity", _hostile_identity)
        support.play_a_game(3, directory, seed=7)
    return directory


@pytest.fixture(scope="module")
def lie_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("lie")
    support.play_a_game(2, directory, LieOptions(rounds=1, hand_size=2), seed=5, timeout=90)
    return directory


def page_of(transcript: Path, *args: str) -> tuple[int, str]:
    out = transcript.parent / f"page{len(args)}.html"
    status = main(["report", str(transcript), "-o", str(out), "--force", *args])
    return status, out.read_text(encoding="utf-8")


def self_contained(page: str) -> None:
    """No external resource: no link, no src, no href but to an anchor of the page."""
    assert "<link" not in page and "@import" not in page and "url(http" not in page
    assert re.findall(r"\bsrc\s*=", page) == []
    assert re.findall(r"href\s*=\s*['\"](?!#)", page) == []
    assert page.count("<script") == 1  # the one that opens every fold before printing


def test_a_verified_larry_game_has_its_verdict_first_its_doubts_and_its_chart(
    larry_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = larry_dir / "seat0" / "table.transcript"
    report = audit_transcript(transcript)
    assert report.verified and report.over and report.doubts >= 1
    assert main(["report", str(transcript)]) == 0
    written = larry_dir / "seat0" / "table.html"  # beside the transcript
    assert capsys.readouterr().out.strip() == f"{written}: ✓ VERIFIED"
    page = written.read_text(encoding="utf-8")
    self_contained(page)
    body = page[page.index("<main>") :]
    assert body.index("✓ VERIFIED") < body.index("<section")  # the verdict comes first
    for doubt in range(1, report.doubts + 1):
        assert f"id='doubt-{doubt}'" in page
    assert f"id='doubt-{report.doubts + 1}'" not in page
    assert page.count("✓ verified") >= report.doubts  # every card's shares, every chain
    assert "<svg" in page and "Winner(s)" in page
    assert HOSTILE not in page and "<script>alert" not in page  # escaped everywhere
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Bo&quot;" in page
    assert "peer0&#x27;s hand" in page  # its secrets are in seat0/: the owner's own hand


def test_a_verified_lie_game_shows_its_races_and_tricks(lie_dir: Path) -> None:
    status, page = page_of(lie_dir / "seat1" / "table.transcript")
    assert status == 0
    self_contained(page)
    assert "✓ VERIFIED" in page
    for part in ("Phase 1 races", "Tricks", "Phase 1: the race (T3)", "<svg"):
        assert part in page
    assert "Doubts" not in page  # The Lie has no doubt to call
    counters = audit_transcript(lie_dir / "seat1" / "table.transcript").counters
    assert f"{counters['steps_round_1']} steps; " in page
    assert page.count("seed gave it to") <= counters["ties"]  # a tie over a card gone: no winner


def test_an_existing_page_is_kept_without_force(
    larry_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine.html"
    out.write_text("keep me")
    transcript = larry_dir / "seat1" / "table.transcript"
    assert main(["report", str(transcript), "-o", str(out)]) == 1
    assert "--force" in capsys.readouterr().err
    assert out.read_text() == "keep me"
    assert main(["report", str(transcript), "-o", str(out), "--force"]) == 0
    assert "✓ VERIFIED" in out.read_text(encoding="utf-8")
    before = transcript.read_bytes()
    assert main(["report", str(transcript), "-o", str(transcript), "--force"]) == 1
    assert "the transcript itself" in capsys.readouterr().err
    assert transcript.read_bytes() == before


@pytest.mark.parametrize("position", [6, 30])
def test_a_tampered_copy_says_not_verified_first_and_names_the_culprit(
    larry_dir: Path, tmp_path: Path, position: int, capsys: pytest.CaptureFixture[str]
) -> None:
    records = read_records(larry_dir / "seat2" / "table.transcript")
    index = applied_indices(records)[position]
    altered = bytearray(records[index]["d"])
    altered[-1] ^= 0x01
    records[index]["d"] = bytes(altered)
    path = tmp_path / "altered.transcript"
    write_records(path, records)
    fault = audit_transcript(path).fault
    assert fault is not None
    assert main(["report", str(path)]) == 1
    assert "NOT VERIFIED" in capsys.readouterr().out
    page = (tmp_path / "altered.html").read_text(encoding="utf-8")
    body = page[page.index("<main>") :]
    assert body.index("✗ NOT VERIFIED") < body.index("<section")
    assert f"entry {position}" in page and f"byte offset {fault.offset}" in page
    names = ["peer0", "&lt;script&gt;", "peer2"]
    assert f"seat {seat_of(records[index])}" in page and names[seat_of(records[index])] in page
    assert "protocol.md 10.7" in page  # the rule or section it breaks, then the audit's


def test_a_file_that_is_not_a_transcript_gives_one_line_and_no_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.transcript"
    path.write_bytes(b"shopping list: eggs, milk\n" * 20)
    assert main(["report", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("fairdeal report:")
    assert not (tmp_path / "notes.html").exists()
    assert main(["report", str(tmp_path / "missing.transcript")]) == 2


def _watchers_copy(transcript: Path, into: Path) -> Path:
    """The log as a watcher receives it (protocol.md 4.8): the header (table, keys, the seat it
    came through, the signed roster) and the applied envelopes, nothing of the seat's own, in
    a folder holding no secrets."""
    records = read_records(transcript)
    into.mkdir()
    copy = into / "watched.transcript"
    write_records(copy, [r for r in records if r["k"] in ("header", "applied")])
    return copy


def test_a_public_page_holds_what_a_watcher_sees_and_no_more(
    larry_dir: Path, tmp_path: Path
) -> None:
    transcript = larry_dir / "seat0" / "table.transcript"  # its secrets are beside it
    _, public = page_of(transcript, "--public")
    _, own = page_of(transcript)
    watched = _watchers_copy(transcript, tmp_path / "watcher")
    status, seen = page_of(watched)
    assert status == 0

    def after_table(page: str) -> str:  # the file's name, size and hash differ, not the game
        return page[page.index("</section>") :]

    assert after_table(public) == after_table(seen)
    assert "&#x27;s hand" not in public and "Made with --public" in public
    assert after_table(own) != after_table(seen) and "peer0&#x27;s hand" in own


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_chromium_renders_the_page_with_its_verdict_players_doubts_and_chart(
    game: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    transcript = request.getfixturevalue(f"{game}_dir") / "seat0" / "table.transcript"
    report = audit_transcript(transcript)
    page = tmp_path / "report.html"
    assert main(["report", str(transcript), "-o", str(page)]) == 0
    shot = browser.screenshot(page, tmp_path / "report.png")
    assert len(browser.colours(shot)) > 2  # text on a verdict box on a page: not blank
    dom = browser.dump_dom(page)
    text = re.sub(r"<[^>]+>", " ", dom)
    assert "✓ VERIFIED" in text
    assert "<svg" in dom and "Winner(s):" in text  # the chart, drawn inline
    assert dom.count("<script") == 1  # a hostile name stayed text: no script of its own
    if game == "lie":
        assert "peer0" in text and "peer1" in text
        assert "Phase 1 races" in text and "Tricks" in text
        return
    for name in ("peer0", "&lt;script&gt;alert(1)&lt;/script&gt;", "peer2"):
        assert name in text
    for doubt in range(1, report.doubts + 1):
        assert f"Doubt {doubt} (hand" in text
    assert text.count("✓ verified") >= report.doubts  # each card's shares, each chain
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    assert len(browser.colours(browser.screenshot(blank, tmp_path / "blank.png"))) == 1


def test_a_log_that_stops_mid_game_is_verified_so_far_and_says_where(
    lie_dir: Path, tmp_path: Path
) -> None:
    """As `fairdeal audit` says (protocol.md 10.7): what is there checks out, the game is not
    over; the page says where the log stops and shows the game up to there."""
    records = read_records(lie_dir / "seat0" / "table.transcript")
    cut = applied_indices(records)[60]
    path = tmp_path / "cut.transcript"
    write_records(path, records[:cut])
    report = audit_transcript(path)
    assert report.verified and report.incomplete
    status, page = page_of(path)
    assert status == 0
    body = page[page.index("<main>") :]
    assert body.index("… VERIFIED SO FAR — INCOMPLETE") < body.index("<section")
    assert f"the log stops after entry {report.entries} (byte {path.stat().st_size}" in page
    assert "Phase 1: the race (T3)" in page


def test_an_envelope_of_another_table_is_not_verified(
    larry_dir: Path, lie_dir: Path, tmp_path: Path
) -> None:
    records = read_records(larry_dir / "seat0" / "table.transcript")
    foreign = read_records(lie_dir / "seat0" / "table.transcript")
    at = applied_indices(records)[20]
    records[at] = foreign[applied_indices(foreign)[20]]
    path = tmp_path / "mixed.transcript"
    write_records(path, records)
    status, page = page_of(path)
    assert status == 1
    body = page[page.index("<main>") :]
    assert body.index("✗ NOT VERIFIED") < body.index("<section")
    assert "envelope of another table" in page and "entry 20" in page
    assert "Rule: protocol.md 4.4 (receiving an envelope: this table&#x27;s id)" in page


def test_a_table_not_started_in_a_lobby_still_shows_its_terms_and_key_codes(
    tmp_path: Path,
) -> None:
    """No signed roster: the terms are seat 0's join, as the lobby shows them, and each seat's
    key code is its header key's."""
    support.play_a_game(2, tmp_path, seed=3, signed_roster=False)
    status, page = page_of(tmp_path / "seat0" / "table.transcript")
    assert status == 0
    assert "hands = 3, short_game = True <span class='dim'>(no signed roster)</span>" in page
    for seat in range(2):
        assert support.identity(seat).code in page
