"""The log wraps again when its width changes, and never splits a key code."""

from __future__ import annotations

from textual.app import App, ComposeResult

from fairdeal.ui.widgets.game_log import GameLog, wrap_line

CODE = "04217 88310 51132 00964 73318"
LONG = (
    "A local table: bots play the other seats, no proofs are needed, and Tess leads trick 1 (T5)."
)


def test_a_key_code_moves_to_the_next_row_whole() -> None:
    rows = wrap_line(f"Seat 1: Ada (player), key code {CODE}", 40)
    assert rows == ["Seat 1: Ada (player), key code", CODE]


def test_a_word_wider_than_the_row_is_folded_and_nothing_is_lost() -> None:
    path = "/home/tess/.local/share/fairdeal/transcripts/table-0123456789abcdef.json"
    rows = wrap_line(f"Transcript: {path}", 30)
    assert all(len(row) <= 30 for row in rows)
    assert "".join(rows[1:]) == path


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield GameLog(id="log")


async def test_lines_written_wide_are_wrapped_again_when_the_log_narrows() -> None:
    app = LogApp()
    async with app.run_test(size=(120, 20)) as pilot:
        log = app.query_one(GameLog)
        log.say(LONG)
        log.say(f"Seat 2: Ben (player), key code {CODE}")
        await pilot.pause()
        assert log.rows()[0] == LONG  # one row at 120 columns
        await pilot.resize_terminal(40, 20)
        await pilot.pause()
        rows = log.rows()
        width = log.scrollable_content_region.width
        assert len(rows) > 2 and all(len(row) <= width for row in rows)
        assert " ".join(rows[:-2]) == LONG  # nothing cut off at the old width
        assert rows[-2:] == ["Seat 2: Ben (player), key code", CODE]
