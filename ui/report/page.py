"""The skeleton every report page shares: one HTML file with its CSS inline, no external
resource, folding by the browser's own `<details>` (no script needed to read it; a small inline
script only opens every fold before printing), and the escaping every piece of text from a
transcript goes through (a player's name is whatever that player typed)."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def esc(text: object) -> str:
    """`text` as HTML text or attribute value: every <, >, &, ' and " escaped."""
    return html.escape(str(text), quote=True)


@dataclass(frozen=True)
class Section:
    """One fold of the page: its anchor, its heading (plain text) and its body (HTML, built
    with `esc`)."""

    anchor: str
    title: str
    body: str
    folded: bool = False  # closed until opened (long parts: the timeline)


def listing(items: Iterable[str], tag: str = "ul") -> str:
    """An HTML list of items that are HTML already."""
    inner = "".join(f"<li>{item}</li>" for item in items)
    return f"<{tag}>{inner}</{tag}>" if inner else ""


def table(head: Sequence[str], rows: Iterable[Sequence[str]], caption: str = "") -> str:
    """An HTML table: `head` plain text, `rows` HTML cells."""
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    heads = "".join(f"<th scope='col'>{esc(h)}</th>" for h in head)
    thead = f"<thead><tr>{heads}</tr></thead>" if any(head) else ""
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table>{cap}{thead}<tbody>{body}</tbody></table>"


def render(title: str, verdict: str, sections: Sequence[Section]) -> str:
    """The whole page: the verdict (HTML) first, then each section as a fold."""
    folds = "".join(
        f"<section id='{esc(s.anchor)}'><details{'' if s.folded else ' open'}>"
        f"<summary><h2>{esc(s.title)}</h2></summary>{s.body}</details></section>"
        for s in sections
    )
    contents = listing(f"<a href='#{esc(s.anchor)}'>{esc(s.title)}</a>" for s in sections)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f"<header><p class='brand'>fairdeal · fairness report</p><h1>{esc(title)}</h1>"
        f"</header><main>{verdict}<nav aria-label='contents'>{contents}</nav>{folds}</main>"
        f"<footer><p>Made by <code>fairdeal report</code> from the transcript alone; anyone "
        "holding the same file (same SHA-256) can check it with <code>fairdeal audit</code>."
        f"</p></footer><script>{SCRIPT}</script></body></html>\n"
    )


# Before printing, every fold opens: a printed page holds everything.
SCRIPT = (
    "addEventListener('beforeprint',function(){"
    "document.querySelectorAll('details').forEach(function(d){d.open=true;});});"
)

CSS = """
:root{--ink:#1b1b1b;--dim:#555;--line:#c8c8c8;--ok:#0a6b2b;--bad:#a3141b;--warn:#7a4b00;
--okbg:#e6f4ea;--badbg:#fbe9e9;--warnbg:#fff4dc;}
*{box-sizing:border-box}
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);
background:#fff;margin:0 auto;max-width:60rem;padding:1rem 1.25rem}
h1{font-size:1.6rem;margin:.2rem 0 .8rem}
h2{font-size:1.2rem;display:inline;margin:0}
h3{font-size:1.05rem;margin:1rem 0 .3rem}
.brand{color:var(--dim);margin:0;font-size:.9rem;letter-spacing:.05em;text-transform:uppercase}
.verdict{border:3px solid;padding:.8rem 1rem;margin:0 0 1rem;border-radius:6px}
.verdict h2{display:block;font-size:1.4rem;margin:0 0 .3rem}
.verdict.ok{border-color:var(--ok);background:var(--okbg)}
.verdict.bad{border-color:var(--bad);background:var(--badbg);border-style:double;border-width:6px}
.verdict.partial{border-color:var(--warn);background:var(--warnbg);border-style:dashed}
.verdict p{margin:.3rem 0}
nav ul{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;padding:0;list-style:none;margin:0 0 1rem}
section{border-top:1px solid var(--line);padding:.5rem 0}
summary{cursor:pointer;padding:.2rem 0}
summary h3{display:inline}
table{border-collapse:collapse;margin:.4rem 0;width:100%}
th,td{border:1px solid var(--line);padding:.25rem .45rem;text-align:left;vertical-align:top}
th{background:#f2f2f2}
caption{text-align:left;font-weight:600;padding:.2rem 0}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;word-break:break-all}
.ok{color:var(--ok)}.bad{color:var(--bad)}.dim{color:var(--dim)}
.tag{display:inline-block;border:1px solid;border-radius:3px;padding:0 .3rem;font-size:.85em}
ol.moves{margin:.2rem 0 .6rem;padding-left:2.2rem}
ol.moves li{margin:.05rem 0}
.doubt{border:1px solid var(--line);border-radius:6px;padding:.4rem .8rem;margin:.6rem 0}
.chart{max-width:100%;height:auto}
footer{color:var(--dim);font-size:.85rem;border-top:1px solid var(--line);margin-top:1rem}
@media print{
body{max-width:none;font-size:11pt}
nav,script{display:none}
summary{list-style:none}
details>summary::-webkit-details-marker{display:none}
section{break-inside:avoid-page}
.doubt,tr{break-inside:avoid}
a{color:inherit;text-decoration:none}
}
"""
