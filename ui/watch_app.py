"""The app of `fairdeal watch`: the replay's screen following a live table."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from fairdeal.p2p.table.watch import WatchClient
from fairdeal.ui.watching import watch_in_app


class WatchApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "fairdeal watch"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, client: WatchClient, host: str, port: int) -> None:
        super().__init__()
        self.client = client
        self.address = (host, port)

    def on_mount(self) -> None:
        self.run_worker(self._watch(), exclusive=True)

    async def _watch(self) -> None:
        if not await watch_in_app(self, self.client, *self.address):
            self.exit(return_code=1)

    async def on_unmount(self) -> None:
        await self.client.close()
