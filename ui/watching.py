"""Watching a table in the app: the replay's screen over a watcher's growing log, following the
end (`fairdeal watch HOST:PORT`, `w` in the lobby). The watcher checks every signature and proof
itself (p2p.table.tools.watch); a fault stops it and is shown alone; a seat that goes away is said,
and watching goes on through another seat."""

from __future__ import annotations

from textual.app import App

from fairdeal.p2p.table.tools.watch import WatchClient, WatchRefused, why_not
from fairdeal.ui.screens.replay import ReplayControls, replay_screen


class Following:
    """Keeps the app's replay screen at the end of the log while the user is there."""

    def __init__(self, app: App[None], client: WatchClient) -> None:
        self.app = app
        self.client = client
        self.end = -1

    def screen(self) -> ReplayControls | None:
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, ReplayControls):  # a Screen too: it is mixed into one
                return screen
        return None

    def update(self) -> None:
        replay = self.client.replay
        if replay is None:
            return
        if replay.fault is not None:  # shown alone: the table is closed, nothing of it stays
            screen = self.screen()
            top = self.app.screen
            if isinstance(top, ReplayControls) and top is screen:
                self.app.pop_screen()
            self.app.notify(
                f"{replay.fault.verdict}: {replay.fault}",
                title="Watching stopped",
                severity="error",
            )
            return
        end = len(replay.frames) - 1
        screen = self.screen()
        if screen is None:
            if end >= 0:
                self.app.push_screen(replay_screen(replay, end))
                self.end = end
            return
        if screen.replaying.position == self.end and end > self.end:  # following the end
            screen.follow_to(end)
        self.end = end


async def watch_in_app(app: App[None], client: WatchClient, host: str, port: int) -> bool:
    """Connect and follow to the game's end, through another seat if the watched one goes
    away (said in a notification); False (with a notification) when refused or unreachable."""
    try:
        await client.connect(host, port)
    except (WatchRefused, OSError, TimeoutError) as error:
        app.notify(why_not(error, host, port), title="Cannot watch", severity="error")
        return False
    following = Following(app, client)
    client.on_update(following.update)
    client.on_notice(lambda text: app.notify(text, title="Watching", severity="warning"))
    following.update()
    await client.follow()
    if client.stopped is not None:
        app.notify(client.stopped, title="Watching stopped", severity="error")
    return True
