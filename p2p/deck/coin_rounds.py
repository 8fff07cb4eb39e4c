"""The joint-coin state machine of one seat: commitments first, then reveals, then the seed.

`DeckSession` delegates every `deck.coin.*` message here; this machine only checks order and
openings, so that it can be read (and audited) on its own. Protocol: protocol.md §6.6.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .coin import CoinSecret, coin_seed, commitment
from .errors import DeckFault, DeckUsageError, ProofError
from .events import CoinFlipped
from .group import RandomBytes
from .messages import CoinCommitMessage, CoinRevealMessage


@dataclass
class _Coin:
    secret: CoinSecret | None  # None: an observer follows the coin without a share in it
    commits: dict[int, bytes] = field(default_factory=dict)
    values: dict[int, bytes] = field(default_factory=dict)
    seed: bytes | None = None


class CoinRounds:
    """Every joint coin of one table, from one seat's point of view."""

    def __init__(self, table_id: bytes, seat: int | None, seats: int, random_bytes: RandomBytes):
        self._table_id = table_id
        self._seat = seat
        self._seats = seats
        self._random_bytes = random_bytes
        self._coins: dict[str, _Coin] = {}

    def __eq__(self, other: object) -> bool:  # compared in state-unchanged checks
        return isinstance(other, CoinRounds) and self._coins == other.coins

    def __repr__(self) -> str:
        return f"CoinRounds({sorted(self._coins)})"

    @property
    def coins(self) -> Mapping[str, _Coin]:
        """Every coin so far, by id, read-only."""
        return MappingProxyType(self._coins)

    def seed(self, coin_id: str) -> bytes | None:
        coin = self._coins.get(coin_id)
        return coin.seed if coin else None

    def start(self, coin_id: str) -> CoinCommitMessage:
        """Draw this seat's (nonce, value) and return its commitment."""
        if coin_id in self._coins:
            raise DeckUsageError(f"coin {coin_id!r} already started")
        if self._seat is None:
            raise DeckUsageError("an observer takes no part in a coin (use follow)")
        secret = CoinSecret.draw(self._random_bytes)
        self._coins[coin_id] = _Coin(secret)
        commit = commitment(self._table_id, coin_id, self._seat, secret.nonce, secret.value)
        return CoinCommitMessage(self._seat, coin_id, commit)

    def follow(self, coin_id: str) -> None:
        """Expect coin `coin_id` without taking part (an observer): verify its reveals only."""
        if coin_id in self._coins:
            raise DeckUsageError(f"coin {coin_id!r} already started")
        self._coins[coin_id] = _Coin(None)

    def on_commit(self, message: CoinCommitMessage) -> CoinRevealMessage | None:
        """Record a commitment; once all are in, return this seat's reveal."""
        coin = self._coins.get(message.coin_id)
        if coin is None:
            raise DeckFault(message.seat, f"commitment to unknown coin {message.coin_id!r}")
        if message.seat in coin.commits:
            raise DeckFault(message.seat, f"second commitment to coin {message.coin_id!r}")
        coin.commits[message.seat] = message.commit
        if len(coin.commits) < self._seats:
            return None
        secret = coin.secret
        if secret is None or self._seat is None:
            return None
        return CoinRevealMessage(self._seat, message.coin_id, secret.nonce, secret.value)

    def on_reveal(self, message: CoinRevealMessage) -> CoinFlipped | None:
        """Check a reveal against its commitment; once all are in, return the seed."""
        seat, coin_id = message.seat, message.coin_id
        coin = self._coins.get(coin_id)
        if coin is None or len(coin.commits) < self._seats:
            raise DeckFault(seat, f"revealed coin {coin_id!r} before every commitment was in")
        if seat in coin.values:
            raise DeckFault(seat, f"revealed coin {coin_id!r} twice")
        expected = commitment(self._table_id, coin_id, seat, message.nonce, message.value)
        if expected != coin.commits[seat]:
            raise ProofError(
                seat,
                f"coin {coin_id!r}: the reveal does not match the commitment",
                {"commit": coin.commits[seat], "nonce": message.nonce, "value": message.value},
            )
        coin.values[seat] = message.value
        if len(coin.values) < self._seats:
            return None
        coin.seed = coin_seed(self._table_id, coin_id, [coin.values[s] for s in range(self._seats)])
        return CoinFlipped(coin_id, coin.seed)
