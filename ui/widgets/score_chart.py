"""A small chart of a game's scores: per player, one bar per hand (Larry) or round (The Lie).

Bars are scaled to the largest value of the chart and grow from a zero axis `│`: a positive value
to the right (green), a negative one to the left (red), with its signed number beside it. So the
sign reads from the bar's side and the number, never from colour alone, and −2 and +2 look
different (the scores screens, the replay, a watcher's screen). A chart with no negative value
(The Lie's prize points) has no left side.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

BAR_WIDTH = 8  # characters of the longest bar on a chart of one sign
EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: int, top: int, width: int = BAR_WIDTH) -> str:
    """|value| as a bar growing rightwards, `width` characters at most (top: largest |value|)."""
    if top <= 0 or value == 0:
        return ""
    eighths = max(1, round(abs(value) / top * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (EIGHTHS[part] if part else "")


def left_bar(value: int, top: int, width: int) -> str:
    """|value| as a bar growing leftwards from the axis, right-aligned in `width` characters.

    Unicode has no right-aligned eighths, so its resolution is a half character (`▐`)."""
    if top <= 0 or value == 0 or width <= 0:
        return " " * width
    halves = max(1, round(abs(value) / top * width * 2))
    full, half = divmod(halves, 2)
    return (("▐" if half else "") + "█" * full).rjust(width)


def signed_bar(value: int, top: int, left: int, right: int) -> str:
    """One cell of the chart: `left` characters for negatives, the axis, `right` for positives."""
    negative = left_bar(value, top, left) if value < 0 else " " * left
    positive = bar(value, top, right) if value > 0 else ""
    return f"{negative}│{positive:<{right}}"


def score_chart(
    names: Sequence[str], series: Sequence[Sequence[int]], column: str, unit: str = ""
) -> Text:
    """`series[k][seat]`: the points of hand/round k+1 for each seat. One line per player."""
    chart = Text()
    if not series:
        return chart
    values = [v for row in series for v in row]
    top = max((abs(v) for v in values), default=0)
    has_negative = any(v < 0 for v in values)
    has_positive = any(v > 0 for v in values) or not has_negative
    # Both signs share BAR_WIDTH, half a side each; one sign takes the whole width.
    left = (BAR_WIDTH // 2 if has_positive else BAR_WIDTH) if has_negative else 0
    right = (BAR_WIDTH - left) if has_positive else 0
    cell = left + 1 + right + 5
    width = max(len(name) for name in names)
    heading = "".join(f"{f'{column} {k + 1}':<{cell}}" for k in range(len(series)))
    chart.append(f"{'':<{width}}  {heading}{unit}\n", style="dim")
    for seat, name in enumerate(names):
        chart.append(f"{name:<{width}}  ")
        for row in series:
            value = row[seat]
            style = "green" if value > 0 else "red" if value < 0 else "dim"
            chart.append(signed_bar(value, top, left, right), style=style)
            chart.append(f"{value:+d} ".rjust(5), style=style)
        total = sum(row[seat] for row in series)
        chart.append(f" = {total:+d}\n", style="bold")
    chart.rstrip()
    return chart
