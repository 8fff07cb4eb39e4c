"""The app of `fairdeal watch`: the replay's screen following a live table."""

from __future__ import annotations

from fairdeal.p2p.table.tools.watch import WatchClient
from fairdeal.ui.replay_app import ViewerApp
from fairdeal.ui.watching import watch_in_app


class WatchApp(ViewerApp):
    TITLE = "fairdeal watch"

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
