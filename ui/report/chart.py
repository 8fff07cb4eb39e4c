"""The scores as an inline SVG bar chart: one bar per seat from a zero line, to the right for a
positive score and to the left (hatched, and labelled with its minus sign) for a negative one,
so that the sign never rests on colour or size alone; the winners are starred and named."""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.ui.report.page import esc

ROW = 28  # px per seat
LABEL = 170  # px for the names on the left
PLOT = 420  # px for the bars
VALUE = 150  # px for the value and the winner's mark


def signed(value: int) -> str:
    """A score with its sign written out: +3, 0, −2 (a real minus sign)."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def score_chart(names: Sequence[str], scores: Sequence[int], winners: Sequence[int]) -> str:
    """The SVG of the scores; its <title> and <desc> say the same in words for a reader that
    shows no pictures."""
    low, high = min(0, *scores), max(0, *scores)
    span = (high - low) or 1
    zero = LABEL + PLOT * (-low) / span
    width, height = LABEL + PLOT + VALUE, ROW * len(scores) + 24
    words = "; ".join(
        f"{name} {signed(score)}{' (winner)' if seat in winners else ''}"
        for seat, (name, score) in enumerate(zip(names, scores, strict=True))
    )
    parts = [
        f"<svg class='chart' role='img' xmlns='http://www.w3.org/2000/svg' width='{width}' "
        f"height='{height}' viewBox='0 0 {width} {height}' aria-labelledby='chart-t chart-d'>",
        "<title id='chart-t'>Scores</title>",
        f"<desc id='chart-d'>{esc(words)}</desc>",
        "<defs><pattern id='minus' width='6' height='6' patternUnits='userSpaceOnUse' "
        "patternTransform='rotate(45)'><rect width='6' height='6' fill='#f3c7c7'/>"
        "<line x1='0' y1='0' x2='0' y2='6' stroke='#a3141b' stroke-width='3'/></pattern></defs>",
    ]
    for seat, (name, score) in enumerate(zip(names, scores, strict=True)):
        y = 8 + seat * ROW
        size = PLOT * abs(score) / span
        x = zero if score >= 0 else zero - size
        fill = "#2f7d4a" if score >= 0 else "url(#minus)"
        mark = " ★ winner" if seat in winners else ""
        parts.append(
            f"<text x='{LABEL - 8}' y='{y + 15}' text-anchor='end' font-size='14' "
            f"font-family='sans-serif'>{esc(_short(name))}</text>"
            f"<rect x='{x:.1f}' y='{y}' width='{max(size, 1):.1f}' height='{ROW - 8}' "
            f"fill='{fill}' stroke='#1b1b1b' stroke-width='1'/>"
            f"<text x='{LABEL + PLOT + 6}' y='{y + 15}' font-size='14' font-family='sans-serif' "
            f"font-weight='{'bold' if mark else 'normal'}'>{esc(signed(score) + mark)}</text>"
        )
    parts.append(
        f"<line x1='{zero:.1f}' y1='2' x2='{zero:.1f}' y2='{height - 14}' stroke='#1b1b1b' "
        f"stroke-width='2'/><text x='{zero:.1f}' y='{height - 2}' text-anchor='middle' "
        "font-size='11' font-family='sans-serif'>0</text></svg>"
    )
    return "".join(parts)


def _short(name: str) -> str:
    return name if len(name) <= 22 else name[:21] + "…"
