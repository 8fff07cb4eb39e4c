"""The replay: the game's own table screen over a `ReplaySession`, with keys to move in time.

← → one step (an action, a card opened, a doubt), PgUp PgDn a hand or round (and a trick, for
a game whose record asks for `fine_marks`), Home End the start and the end; s the scores (with
their chart), Esc back.
A step forward feeds the screen that step's events; a jump or a step back starts the same screen
again at that step (`init_table_state`, its log emptied, the session's history to there replayed
into it): a table screen only ever goes forward, and the steps passed over are history there
(logged, with no doubt or scores view opening for them). The widgets stay: building a new screen
(compose, styles, layout) cost more than the whole history. A view open over the replay (a
doubt's, the scores) is closed first: it belonged to the step left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Static

from fairdeal.p2p.table.core.api import ReplayDone, ReplayStarted, TableEvent
from fairdeal.p2p.table.tools.replay import Replay
from fairdeal.ui.replay_bar import bar_text
from fairdeal.ui.replay_session import ReplaySession
from fairdeal.ui.screen_game import screen_game
from fairdeal.ui.screens.table import TableScreenBase
from fairdeal.ui.widgets.game_log import GameLog

REPLAY_BINDINGS: list[BindingType] = [
    Binding("left", "step(-1)", "Step", key_display="←→"),
    Binding("right", "step(1)", show=False),
    Binding("pageup", "jump(-1)", "Hand/trick", key_display="PgUp/PgDn"),
    Binding("pagedown", "jump(1)", show=False),
    Binding("home", "edge(-1)", "Start/End", key_display="Home/End"),
    Binding("end", "edge(1)", show=False),
    Binding("s", "scores", "Scores"),
    Binding("question_mark,f1", "help", "Help", key_display="?"),
    Binding("escape", "leave", "Back"),
]

REPLAY_CSS = """
#replay-bar { dock: top; height: 1; padding: 0 1; background: $accent 40%; }
"""


def replay_screen(replay: Replay, position: int = 0) -> Screen[None]:
    """The replay's screen at frame `position`, for its game."""
    return screen_game(replay.game).replay_screen(ReplaySession(replay, position))


def watching_hint(state: Any, names: list[str]) -> str:
    """What a watcher's hint line says: the game's end, or who is to move, and the keys."""
    keys = "← → step back and on · End follows the table · s scores · Esc leaves"
    if state.over:
        return f"Watching: the game is over. {keys}"
    seat = state.to_act()
    moving = f"{names[seat]} to move" if seat is not None else "the table plays on"
    return f"Watching: {moving}. {keys}"


# ReplayControls is mixed in before a game's table screen, so its overrides come first. It is
# checked as the `TableScreenBase` it is always mixed into (its `super()` calls are the table
# screen's); at run time it is no Screen of its own, since Textual takes a screen's styles and CSS
# type names from its first Screen base only, which must stay the game's table screen.
if TYPE_CHECKING:
    ReplayBase = TableScreenBase[Any]
else:
    ReplayBase = object


class ReplayControls(ReplayBase):
    """The keys and the bar shared by every game's replay screen: the first base of a game's
    replay screen, before its table screen (ui/games/<game>/replay.py)."""

    _history = False  # within the steps before this one: logged, no views opened, drawn once

    def _follow_history(self, event: TableEvent) -> None:
        """ReplayStarted opens the history before this step, ReplayDone closes it."""
        if isinstance(event, ReplayStarted | ReplayDone):
            self._history = isinstance(event, ReplayStarted)

    @property
    def replaying(self) -> ReplaySession:
        """The session as the replay it is (a replay screen is only ever given one)."""
        session = self.session
        if not isinstance(session, ReplaySession):
            raise TypeError(f"a replay screen over a {type(session).__name__}")
        return session

    def compose(self) -> ComposeResult:
        """The replay's bar above the game's table screen."""
        yield self.replay_bar()
        yield from super().compose()

    async def handle(self, event: TableEvent) -> None:
        self._follow_history(event)
        await super().handle(event)
        if isinstance(event, ReplayDone):
            self.query_one(GameLog).release()
            await self.redraw()  # once, for all the history before it

    def replay_bar(self) -> Static:
        return Static(bar_text(self.replaying.replay, self.replaying.position), id="replay-bar")

    def _update_bar(self) -> None:
        try:  # a watcher's screen may move on before it is mounted: compose draws it then
            bar = self.query_one("#replay-bar", Static)
        except NoMatches:
            return
        bar.update(bar_text(self.replaying.replay, self.replaying.position), layout=False)  # 1 row

    def go_to(self, position: int) -> None:
        session = self.replaying
        last = len(session.replay.frames) - 1
        position = max(0, min(position, last))
        if position == session.position:
            return
        if position == session.position + 1:  # the next step: its events, its views
            session.advance(1)
            self._update_bar()
        else:  # the steps passed over are history (no views open for them)
            self._start_again_at(position)

    def _start_again_at(self, position: int) -> None:
        """This screen as new at `position`: its state, an empty log, the history replayed."""
        stack = self.app.screen_stack
        while self in stack and stack[-1] is not self:  # a view of the step left
            self.app.pop_screen()  # (its callback goes with it: the state starts again anyway)
            stack = self.app.screen_stack
        self.session = ReplaySession(self.replaying.replay, position)
        self.init_table_state()
        self._history = False
        self.query_one(GameLog).forget()
        self._update_bar()
        self.follow_table()  # exclusive: the old one is cancelled

    def follow_to(self, position: int) -> None:
        """A watcher's screen at the end moves on to the new end: every step's events in turn,
        on this screen (a doubt or scores view opens as at the table)."""
        if position > self.replaying.position:
            self.replaying.advance(position - self.replaying.position)
            self._update_bar()

    def action_step(self, delta: int) -> None:
        self.go_to(self.replaying.position + delta)

    def action_jump(self, direction: int) -> None:
        replay, here = self.replaying.replay, self.replaying.position
        marks = replay.marks(fine=screen_game(replay.game).fine_marks)
        if direction > 0:
            later = [m for m in marks if m > here]
            self.go_to(later[0] if later else len(replay.frames) - 1)
        else:
            earlier = [m for m in marks if m < here]
            self.go_to(earlier[-1] if earlier else 0)

    def action_edge(self, direction: int) -> None:
        self.go_to(0 if direction < 0 else len(self.replaying.replay.frames) - 1)

    def drawing_deferred(self) -> bool:
        """The table is drawn once for the history, and once per step after its last event."""
        if self._history:
            return True
        seen = self.events_seen
        return seen + 1 < len(self.replaying.history)

    def others_would_wait(self) -> bool:
        return False  # nobody waits on a replay

    def plays_its_seat(self) -> bool:
        """A watcher sees the table through a seat it does not play: no view waits for its key
        as if the doubt or the turn were its own."""
        return not self.replaying.replay.live

    def hint_text(self, view: Any) -> str:
        """A watcher's hint: whose move it is and the keys a watcher has; never the prompts of
        the seat it watches through ("YOUR TURN", "place it"), nor a new game."""
        if not self.replaying.replay.live:
            return super().hint_text(view)
        return watching_hint(view.state, [seat.name for seat in self.session.seats])

    def action_leave(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
