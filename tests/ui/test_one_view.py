"""One view everywhere: the doubt view keeps its "said" column at a networked table,
where the state after the doubt (an empty pile) arrives before the doubt's verification."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import Static

from fairdeal.p2p.table.core.api import ProofStatus
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.table_finder import FixedFinder

from .fake_session import ScriptedSession
from .support import PLAYER, static_text
from .test_app_notices import caught_up, verification


async def test_the_doubt_view_shows_what_was_said_from_the_verification_itself() -> None:
    session = ScriptedSession()  # its state has an empty pile, as after a doubt
    app = FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        check = verification(ProofStatus.VERIFIED, ProofStatus.VERIFIED, ProofStatus.VERIFIED)
        session.push(replace(check, said=(3, 5, 7)))
        await caught_up(pilot, session)
        doubt = pilot.app.screen
        assert isinstance(doubt, DoubtScreen)
        cards = static_text(doubt.query_one("#doubt-cards", Static))
        header = cards.splitlines()[0].split()
        assert header[:4] == ["#", "played", "by", "said"], cards
        rows = [line.split() for line in cards.splitlines()[1:] if line.strip()]
        assert [row[2] for row in rows] == ["3", "5", "7"], cards
