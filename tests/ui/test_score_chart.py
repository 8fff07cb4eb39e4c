"""The score chart: bars to one scale, signs kept, one line per player with its total."""

from __future__ import annotations

from fairdeal.ui.widgets.score_chart import BAR_WIDTH, bar, score_chart


def test_bars_share_one_scale_and_ignore_the_sign() -> None:
    assert bar(6, 6) == "█" * BAR_WIDTH
    assert bar(-6, 6) == bar(6, 6)
    assert bar(3, 6) == "█" * (BAR_WIDTH // 2)
    assert bar(0, 6) == ""
    assert bar(1, 100) == "▏"  # the smallest nonzero value still shows


def test_a_line_per_player_with_each_hand_and_the_total() -> None:
    text = score_chart(["Ann", "Bo"], [(2, -4), (-1, 3)], "hand").plain
    lines = text.splitlines()
    assert "hand 1" in lines[0] and "hand 2" in lines[0]
    assert lines[1].startswith("Ann") and "+2" in lines[1] and "-1" in lines[1]
    assert lines[1].endswith("= +1") and lines[2].endswith("= -1")


def test_no_hand_no_chart() -> None:
    assert score_chart(["Ann"], [], "hand").plain == ""
