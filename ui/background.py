"""Background work (Textual workers) that no error takes the app down with.

Textual ends the app with a traceback when a worker fails. Each of ours runs its work through
`reported` instead: a failure becomes a `BackgroundFailed` message to the app, which shows it
and goes on (ui/app.py, `report_failure`), as it does for a key whose action fails. The table
goes on; so does the lobby. tests/ui/test_background.py checks that every worker of ui/ does.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from textual.message import Message


class BackgroundFailed(Message):
    """Background work failed: `what` it was doing, and the error."""

    def __init__(self, what: str, error: Exception) -> None:
        super().__init__()
        self.what = what
        self.error = error


class InApp(Protocol):
    """What runs background work: a screen or widget of the app (or a mixin of one)."""

    @property
    def app(self) -> Any: ...


NodeT = TypeVar("NodeT", bound=InApp)
P = ParamSpec("P")


def reported(
    what: str,
) -> Callable[
    [Callable[Concatenate[NodeT, P], Awaitable[None]]],
    Callable[Concatenate[NodeT, P], Coroutine[Any, Any, None]],
]:
    """Decorate a screen's async method (under Textual's `@work`): an error it raises is told to
    the app as `BackgroundFailed(what, error)`, and the worker ends quietly."""

    def wrap(
        method: Callable[Concatenate[NodeT, P], Awaitable[None]],
    ) -> Callable[Concatenate[NodeT, P], Coroutine[Any, Any, None]]:
        @functools.wraps(method)
        async def run(node: NodeT, /, *args: P.args, **kwargs: P.kwargs) -> None:
            await reporting(what, node.app, method(node, *args, **kwargs))

        return run

    return wrap


async def reporting(what: str, app: Any, work: Awaitable[object]) -> None:
    """Run `work`; an error it raises is told to `app` as `BackgroundFailed(what, error)`."""
    try:
        await work
    except Exception as error:
        app.post_message(BackgroundFailed(what, error))
