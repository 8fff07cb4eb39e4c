"""The verdict a report page opens with, in the audit's words (protocol.md 10.7): verified,
verified so far (and where the log stops), or NOT VERIFIED with the fault, the culprit seat's
name, the rule or protocol.md section it breaks and where in the file it stands."""

from __future__ import annotations

import re
from collections.abc import Sequence

from fairdeal.p2p.table.tools.audit import AuditFault
from fairdeal.p2p.table.tools.replay import Replay
from fairdeal.ui.report.facts import FileFacts
from fairdeal.ui.report.page import esc


def verdict_words(replay: Replay) -> str:
    """The verdict's first words: VERIFIED, VERIFIED SO FAR — INCOMPLETE, or NOT VERIFIED."""
    report = replay.report
    if report.fault is not None:
        return "✗ NOT VERIFIED"
    if report.incomplete:
        return "… VERIFIED SO FAR — INCOMPLETE"
    return "✓ VERIFIED"


def verdict_html(replay: Replay, facts: FileFacts, names: Sequence[str]) -> str:
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
