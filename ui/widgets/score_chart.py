"""A small chart of a game's scores: per player, one bar per hand (Larry) or round (The Lie).

Bars are scaled to the largest value of the chart; a positive value is drawn in green, a negative
one in red to the same scale, with its number beside it, so the course of a game reads at a
glance (the scores screens, the replay, a watcher's screen).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

BAR_WIDTH = 8  # characters of the longest bar
EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: int, top: int, width: int = BAR_WIDTH) -> str:
    """|value| as a bar of `width` characters at most (top: the chart's largest |value|)."""
    if top <= 0 or value == 0:
        return ""
    eighths = max(1, round(abs(value) / top * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (EIGHTHS[part] if part else "")


def score_chart(
    names: Sequence[str], series: Sequence[Sequence[int]], column: str, unit: str = ""
) -> Text:
    """`series[k][seat]`: the points of hand/round k+1 for each seat. One line per player."""
    chart = Text()
    if not series:
        return chart
    top = max((abs(v) for row in series for v in row), default=0)
    width = max(len(name) for name in names)
    heading = "".join(f"{f'{column} {k + 1}':<{BAR_WIDTH + 5}}" for k in range(len(series)))
    chart.append(f"{'':<{width}}  {heading}{unit}\n", style="dim")
    for seat, name in enumerate(names):
        chart.append(f"{name:<{width}}  ")
        for row in series:
            value = row[seat]
            style = "green" if value > 0 else "red" if value < 0 else "dim"
            chart.append(f"{bar(value, top):<{BAR_WIDTH}}", style=style)
            chart.append(f"{value:+d} ".rjust(5), style=style)
        total = sum(row[seat] for row in series)
        chart.append(f" = {total:+d}\n", style="bold")
    chart.rstrip()
    return chart
