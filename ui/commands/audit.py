"""`fairdeal audit FILE... [--json]`: verify Larry transcripts offline (signatures, hash chain,
roster, every proof, a full replay through the engine, the scores). Exit 0 when every file
verifies (and, for several files, they agree) — a log that stops mid-game verifies "so far" and
says "incomplete", with the bytes of a torn last record it ignored; else 1, naming the first
fault, its seat and, for a damaged file, the byte offset; 2 when a file cannot be read at all
(missing, a directory, no permission: "cannot read"). The files are only read."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="transcript files")
    parser.add_argument("--json", action="store_true", help="print a JSON report")


def unreadable(path: Path) -> str | None:
    """Why `path` cannot be read (None: it can). A missing or unreadable file is not a FAULT of
    any seat: there is nothing to audit."""
    if path.is_dir():
        return "it is a directory"
    try:
        with open(path, "rb") as file:
            file.read(1)
    except OSError as error:
        return error.strerror or str(error)
    return None


def run(args: argparse.Namespace) -> int:
    from fairdeal.p2p.table.tools.audit import audit_many, digest

    problems = [(path, why) for path in args.files if (why := unreadable(path)) is not None]
    if problems:
        if args.json:
            cannot = [{"path": str(path), "cannot_read": why} for path, why in problems]
            print(json.dumps({"verified": False, "cannot_read": cannot}, indent=2))
        for path, why in problems:
            print(f"{path}: cannot read: {why}", file=sys.stderr)
        return 2
    reports, disagreement = audit_many(list(args.files))
    ok = all(r.verified for r in reports) and disagreement is None
    if args.json:
        print(
            json.dumps(
                {
                    "verified": ok,
                    "transcripts": [r.to_json() for r in reports],
                    "disagreement": None if disagreement is None else str(disagreement),
                },
                indent=2,
            )
        )
        return 0 if ok else 1
    for report in reports:
        if report.verified:
            verdict = "verified so far" if report.incomplete else "verified"
            print(f"{report.path}: {verdict}: {report.result_text()} (log {digest(report)})")
        elif report.fault is not None:  # DOES NOT VERIFY when no seat is proven at fault
            print(f"{report.path}: {report.fault.verdict}: {report.fault}")
        else:
            print(f"{report.path}: FAULT: {report.fault}")
    if disagreement is not None:
        label = "FAULT" if disagreement.what == "transcripts disagree" else "NOT COMPARABLE"
        print(f"{label}: {disagreement}")
    return 0 if ok else 1
