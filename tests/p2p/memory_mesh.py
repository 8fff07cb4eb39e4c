"""An in-memory stand-in for `Mesh`: the few calls `TableSync` makes, with messages queued and
delivered in order (msgpack round trip, as on the wire) when the test says so, and links a test
can cut. No sockets, no event loop needed."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.net.framing import pack_message, unpack_message


class MemoryNetwork:
    def __init__(self) -> None:
        self.meshes: dict[bytes, MemoryMesh] = {}
        self.queue: deque[tuple[MemoryMesh, MemoryMesh, bytes]] = deque()
        self.cut: set[tuple[bytes, bytes]] = set()  # (from, to) links that drop everything
        self.sent: list[tuple[bytes, bytes, str]] = []  # (from, to, message type)

    def mesh(self, identity: Identity) -> MemoryMesh:
        mesh = MemoryMesh(identity, self)
        for other in self.meshes.values():
            other.peers[identity.key] = identity.public
            mesh.peers[other.identity.key] = other.identity.public
        self.meshes[identity.key] = mesh
        return mesh

    def deliver(self, limit: int = 100_000) -> int:
        """Deliver every queued message (and those they cause); returns how many."""
        count = 0
        while self.queue and count < limit:
            sender, receiver, payload = self.queue.popleft()
            receiver.receive(sender.identity.public, unpack_message(payload, "test"))
            count += 1
        return count


class MemoryMesh:
    def __init__(self, identity: Identity, network: MemoryNetwork) -> None:
        self.identity = identity
        self.network = network
        self.peers: dict[bytes, PublicIdentity] = {}
        self.errors: list[PeerError] = []
        self._handlers: dict[str, Callable[[PublicIdentity, dict[str, Any]], None]] = {}
        self._peer_up: list[Callable[[PublicIdentity], None]] = []
        self._gates: list[Callable[[], bool]] = []
        self._held: list[tuple[bytes, Mapping[str, Any]]] = []

    def on(self, message_type: str, handler: Callable[[PublicIdentity, dict[str, Any]], None]):
        self._handlers[message_type] = handler

    def on_peer_up(self, callback: Callable[[PublicIdentity], None]) -> None:
        self._peer_up.append(callback)

    def send(self, peer_key: bytes, message: Mapping[str, Any]) -> bool:
        if peer_key not in self.peers:
            return False
        if self._gates:
            self._held.append((peer_key, message))
            return True
        self.network.sent.append((self.identity.key, peer_key, str(message["t"])))
        if (self.identity.key, peer_key) in self.network.cut:
            return True  # gone on the wire: the sender cannot tell
        receiver = self.network.meshes[peer_key]
        self.network.queue.append((self, receiver, pack_message(message)))
        return True

    def hold(self, gate: Callable[[], bool]) -> None:
        """As `Mesh.hold`, released by `release` only (there is no loop here)."""
        if gate not in self._gates:
            self._gates.append(gate)

    def release(self) -> None:
        gates, self._gates = self._gates, []
        held, self._held = self._held, []
        if all([gate() for gate in gates]):
            for peer_key, message in held:
                self.send(peer_key, message)

    def broadcast(self, message: Mapping[str, Any], exclude: Iterable[bytes] = ()) -> int:
        skip = set(exclude)
        return sum(self.send(key, message) for key in list(self.peers) if key not in skip)

    def receive(self, sender: PublicIdentity, message: dict[str, Any]) -> None:
        handler = self._handlers.get(message["t"])
        if handler is None:
            return
        try:
            handler(sender, message)
        except PeerError as error:
            self.errors.append(error)
