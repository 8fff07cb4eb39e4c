"""N sans-IO Larry tables wired through in-memory table logs: no sockets, the full fair deck.

Each seat's outbox is signed and delivered to every log in turn, private give-away shares go to
their receiver; `tamper(seat, item)` lets a test change what one seat publishes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairdeal.engine.larry import Action, LarryOptions
from fairdeal.engine.larry.codec import to_data
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.games.larry.table import ACT, LarryTable
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.tablelog import Roster, TableLog
from fairdeal.p2p.table.core.driver import Private, Publish
from fairdeal.p2p.table.core.forwards import SignedForward, sign_forward
from fairdeal.p2p.table.runtime.randomness import SeededRandom

Policy = Callable[[int, LarryTable], Action]
Tamper = Callable[[int, Publish | Private], Publish | Private]


class SansIOTable:
    def __init__(
        self,
        seats: int,
        options: LarryOptions,
        seed: int = 0,
        tables: dict[int, type[LarryTable]] | None = None,
    ) -> None:
        self.ids = [
            Identity.generate(f"s{s}", lambda n, s=s: bytes([s + 1]) * n) for s in range(seats)
        ]
        table_id = self.table_id = bytes([seed]) * 16
        self.roster = Roster(table_id, tuple(i.key for i in self.ids))
        self.tables = [
            (tables or {}).get(s, LarryTable)(
                table_id,
                seats,
                options,
                DeckSession(table_id, s, seats, random_bytes=SeededRandom(bytes([seed, s]) * 16)),
                keys=self.roster.keys,
            )
            for s in range(seats)
        ]
        self.logs = [
            TableLog(self.roster, lambda _log, t=t: t.expected_seat(), t.apply) for t in self.tables
        ]
        self.published: list[tuple[int, str, Any]] = []
        self.forwards: list[tuple[int, SignedForward]] = []  # (sender, forward) in sending order

    def run(self, policy: Policy, tamper: Tamper | None = None, limit: int = 5000) -> None:
        for table in self.tables:
            table.start()
        for _ in range(limit):
            moved = False
            for seat, table in enumerate(self.tables):
                if table.my_turn() and not any(
                    isinstance(o, Publish) and o.kind == ACT for o in table.outbox
                ):
                    table.outbox.append(Publish(ACT, to_data(policy(seat, table))))
                while table.outbox:
                    item = table.outbox.pop(0)
                    if tamper is not None:
                        item = tamper(seat, item)
                    moved = True
                    if isinstance(item, Private):
                        forward = sign_forward(
                            self.ids[seat].sign,
                            self.table_id,
                            item.transfer,
                            item.slot,
                            item.body,
                            game=self.tables[seat].game_name,
                        )
                        self.forwards.append((seat, forward))
                        self.tables[item.to].receive_private(seat, forward.to_data())
                        continue
                    envelope = self.logs[seat].author(self.ids[seat], seat, item.kind, item.body)
                    self.published.append((seat, item.kind, item.body))
                    for log in self.logs:
                        log.receive(envelope)
            if not moved:
                return
        raise AssertionError("the table did not settle")
