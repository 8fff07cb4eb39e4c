"""The score chart: bars to one scale, the sign shown by the bar's side, one line per player."""

from __future__ import annotations

from fairdeal.ui.widgets.score_chart import BAR_WIDTH, bar, left_bar, score_chart


def test_bars_share_one_scale() -> None:
    assert bar(6, 6) == "█" * BAR_WIDTH
    assert bar(3, 6) == "█" * (BAR_WIDTH // 2)
    assert bar(0, 6) == ""
    assert bar(1, 100) == "▏"  # the smallest nonzero value still shows
    assert left_bar(-6, 6, 4) == "████"
    assert left_bar(-3, 6, 4) == "  ██"
    assert left_bar(-1, 100, 4) == "   ▐"


def cells(line: str) -> list[str]:
    """The bar cells of one chart line: what lies on each side of every axis."""
    return line.split("│")


def test_the_sign_is_the_side_of_the_axis_not_only_the_colour() -> None:
    # Larry's hand scores: +2 for the winner, minus symbols for the others (L16).
    text = score_chart(["Ann", "Bo"], [(2, -2), (-3, 1)], "hand").plain
    ann, bo = (cells(line) for line in text.splitlines()[1:])
    # +2 grows right of hand 1's axis, -2 left of it: the two no longer look the same.
    assert ann[1].startswith("█") and not ann[0].endswith("█")
    assert bo[0].endswith("██") and not bo[1].startswith("█")
    # -3, the largest size, lies left of hand 2's axis; +1 right of it.
    assert ann[1].endswith("████") and not ann[2].startswith("█")
    assert bo[2].startswith("█")


def test_a_chart_of_one_sign_has_one_side() -> None:
    text = score_chart(["Ann", "Bo"], [(4, 0), (2, 6)], "round").plain
    ann = text.splitlines()[1]
    # No negative value: nothing is kept left of the axis, the bars take the whole width.
    assert "  │████" in ann
    assert bar(6, 6) in text.splitlines()[2]


def test_a_line_per_player_with_each_hand_and_the_total() -> None:
    text = score_chart(["Ann", "Bo"], [(2, -4), (-1, 3)], "hand").plain
    lines = text.splitlines()
    assert "hand 1" in lines[0] and "hand 2" in lines[0]
    assert lines[1].startswith("Ann") and "+2" in lines[1] and "-1" in lines[1]
    assert lines[1].endswith("= +1") and lines[2].endswith("= -1")


def test_no_hand_no_chart() -> None:
    assert score_chart(["Ann"], [], "hand").plain == ""
