"""The report page's shared parts: a fault cites the rule or protocol.md section it names, else
the one its kind breaks, then the audit's; the score chart writes every sign out and says the
scores in words; every text is escaped."""

from __future__ import annotations

from fairdeal.p2p.table.tools.audit import AuditFault
from fairdeal.ui.report.chart import score_chart, signed
from fairdeal.ui.report.page import esc
from fairdeal.ui.report.verdict import citations


def test_a_fault_cites_the_rules_it_names_then_the_audit() -> None:
    named = AuditFault(2, "claimed a card already taken (T3)", "slot 4, see protocol.md 10.11.4")
    assert citations(named) == ["T3", "protocol.md 10.11.4", "protocol.md 10.7 (audit)"]
    signature = AuditFault(1, "bad signature", "larry.act #3", 7, 900, False)
    assert citations(signature)[0] == "protocol.md 4.2 (envelope signatures)"
    unknown = AuditFault(0, "something new", "")
    assert citations(unknown) == [
        "protocol.md 10.4 (checks and faults)",
        "protocol.md 10.7 (audit)",
    ]


def test_the_chart_writes_each_sign_and_names_the_winner_in_words() -> None:
    assert [signed(v) for v in (3, 0, -2)] == ["+3", "0", "−2"]
    svg = score_chart(["Ada", "<b>Bo</b>"], [4, -3], [0])
    assert "<desc id='chart-d'>Ada +4 (winner); &lt;b&gt;Bo&lt;/b&gt; −3</desc>" in svg
    assert "+4 ★ winner" in svg and "−3" in svg
    assert "url(#minus)" in svg  # a negative bar is hatched, not only another colour
    assert "<b>" not in svg


def test_every_text_is_escaped() -> None:
    assert esc("<script>'\"&") == "&lt;script&gt;&#x27;&quot;&amp;"
