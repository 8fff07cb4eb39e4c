"""Every term of a game is signed in the lobby or fixed at the rulebook's value, and a join holds
nothing else (protocol.md 10.2, section 8): the peer refuses other terms before it plays, and the
audit refuses a transcript whose joins carry them — The Lie's `prizes` [5, 2, 1] changed the
scores at 3 seats without anyone having signed it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.games.lie.table import LieTable
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.tools.audit import audit_transcript
from tests.game.lie_sansio import LieSansIO, quick_options
from tests.game.test_lie_table import write_transcript

from .support import open_table, play_to_end

pytestmark = pytest.mark.timeout(120)


def quick_lie(**changes: Any) -> LieOptions:
    values: dict[str, Any] = {"rounds": 1, "hand_size": 2}
    values.update(changes)
    return LieOptions(**values)


@pytest.mark.parametrize(
    ("term", "value"),
    [("prizes", (5, 2, 1)), ("prizes_two_players", (2, 2)), ("colour_names", ("a", "b", "c", "d"))],
)
def test_a_lie_peer_refuses_unsigned_terms_other_than_the_rulebooks(term: str, value: Any) -> None:
    options = quick_lie(**{term: value})
    deck = DeckSession(b"t" * 16, 0, 3)
    with pytest.raises(ValueError, match=f"lie's {term} is .* not the rulebook's"):
        LieTable(b"t" * 16, 3, options, deck)
    LieTable(b"t" * 16, 3, quick_lie(), DeckSession(b"t" * 16, 0, 3))  # signed terms: fine


def test_a_larry_peer_refuses_unsigned_terms_other_than_the_rulebooks() -> None:
    with pytest.raises(ValueError, match="larry's gloats is 5, not the rulebook's 3"):
        LarryTable(b"t" * 16, 2, LarryOptions(gloats=5), DeckSession(b"t" * 16, 0, 2))


async def _played(
    directory: Path, options: Any, monkeypatch: pytest.MonkeyPatch, table: type[TableDriver]
) -> Path:
    """A whole game whose peers all carry `options` (their own checks switched off, as a
    dishonest peer's would be), and seat 1's transcript of it."""
    with monkeypatch.context() as patched:
        patched.setattr(
            TableDriver, "check_terms", classmethod(lambda cls, options: None), raising=False
        )
        local = await open_table(2, directory, options, seed=9, tables={0: table, 1: table})
        try:
            await play_to_end(local, timeout=90)
        finally:
            await local.close()
    return local.transcript(1)


async def test_the_audit_refuses_a_lie_join_with_unsigned_prizes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = await _played(tmp_path, quick_lie(prizes_two_players=(5, 0)), monkeypatch, LieTable)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == 0 and report.fault.what == "joined with other game terms"
    assert "prizes_two_players is [5, 0], not the rulebook's [3, 1]" in report.fault.evidence
    assert report.fault.entry == 1  # seat 0's join, after the roster


class _LieJoinWithAnExtraKey(LieTable):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.terms = {**self.terms, "house_rule": "jokers wild"}  # every seat agrees on it


class _LarryJoinWithAnExtraKey(LarryTable):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.terms = {**self.terms, "house_rule": "jokers wild"}


@pytest.mark.parametrize(
    ("options", "table"),
    [
        (quick_lie(), _LieJoinWithAnExtraKey),
        (LarryOptions(short_game=True), _LarryJoinWithAnExtraKey),
    ],
    ids=["lie", "larry"],
)
async def test_the_audit_refuses_a_join_with_an_unknown_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: Any, table: type[TableDriver]
) -> None:
    path = await _played(tmp_path, options, monkeypatch, table)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == 0 and report.fault.what == "joined with other game terms"
    assert "unknown key(s) house_rule" in report.fault.evidence


class _LieJoinWithoutADefault(LieTable):
    """Signs a join whose options leave out `colour_names`, a field with a default: it decodes
    to the same options, but it is not the body every seat expects (protocol.md 7.1)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        options = {k: v for k, v in self.terms["options"].items() if k != "colour_names"}
        self.terms = {**self.terms, "options": options}


@pytest.mark.parametrize("who", ["seat 0", "every seat"])
def test_a_join_that_leaves_out_a_default_field_is_seat_0s_fault_in_play_and_audit(
    tmp_path: Path, who: str
) -> None:
    """Joins are compared as the plain decoded maps, with every field written (7.1, 10.2): a
    peer refuses seat 0's join that leaves out a default field, and so does the audit, which
    used to take seat 0's join as the terms and so either verified such a table or blamed the
    first honest seat after it."""
    classes = {0: _LieJoinWithoutADefault}
    if who == "every seat":
        classes[1] = _LieJoinWithoutADefault
    net = LieSansIO(2, quick_options(), seed=5, classes=classes)
    net.run(claims=lambda _seat, _table: None, until=lambda n: n.tables[0].applied >= 2)
    if who == "seat 0":
        fault = net.tables[1].fault
        assert fault is not None and (fault.seat, fault.what) == (0, "joined with other game terms")
        assert "colour_names" in fault.evidence
    report = audit_transcript(write_transcript(net, 1, tmp_path / "joins.transcript"))
    assert not report.verified and report.fault is not None
    assert (report.fault.seat, report.fault.what) == (0, "joined with other game terms")
    assert "leave out colour_names" in report.fault.evidence
    assert report.fault.entry == 0  # seat 0's join (no roster in a sans-IO table)
