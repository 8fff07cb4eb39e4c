"""How large each kind of envelope can legitimately be, and how much a seat may have held ahead
(protocol.md 4.4 step 4, "Sizes").

Every cap is the msgpack size of the largest body a kind can carry at this table, counted from
the protocol's own sizes (a point or scalar is a 32-byte `bin`, 34 bytes encoded; a list id is at
most 64 ASCII characters; section 6's message layouts), plus the envelope's own fields. A body
over its kind's cap is refused before it is held; a seat whose envelopes held ahead of their
place would pass its budget has the next one refused. So one seat can make an honest peer hold at
most `held_ahead` bytes ahead, whatever it signs.

The figures are the log's data (`EnvelopeLimits`, p2p/log/tablelog.py): computed once here when
the game's sizes are known, then checked by the log on every envelope without calling back here.

The table's sizes are N seats, the most cards in one list L (a shuffle carries L), and the cards
of the game C (a message of shares carries at most one share of each seat for each card).
"""

from __future__ import annotations

from collections.abc import Mapping

from fairdeal.p2p.log.tablelog import EnvelopeLimits
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE

BIN32 = 2 + 32  # a point, scalar, hash or key: bin8 header and 32 bytes
BIN64 = 2 + 64  # a signature, a coin commitment
LIST_ID = 2 + 64  # a list or coin id: at most 64 ASCII characters (str8)
INT = 9  # any integer, in its longest form
# The signed array d without its body: array header, layout, table id (bin, <= 64), seat,
# seq, prev (bin 32) and kind (str, <= 64 characters).
ENVELOPE = 1 + 1 + (2 + 64) + 2 + INT + BIN32 + (2 + 64)
SMALL = 4096  # the floor of every cap: a join, an action, a roster (all well under 1 KiB)


def key(name: str) -> int:
    """A map key of fewer than 32 characters (fixstr) and its value's room is counted apart."""
    return 1 + len(name)


def shuffle_body(cards: int) -> int:
    """`deck.shuffle` of a list of `cards` (6.4): 239 bytes a card and 466 more."""
    deck = key("deck") + 3 + cards * (1 + 2 * BIN32)
    vector = 3 + cards * BIN32  # c, c_hat, t_hat, s_hat, s_tilde: one point or scalar a card
    proof = (
        key("proof")
        + 1
        + sum(key(k) + vector for k in ("c", "c_hat", "t_hat", "s_hat", "s_tilde"))
        + key("t")
        + 1
        + 5 * BIN32
        + key("s")
        + 1
        + 4 * BIN32
    )
    head = 1 + key("kind") + key("deck.shuffle") + key("seat") + 1 + key("list") + LIST_ID
    return head + deck + proof


SHARE_ENTRY = (
    1
    + key("list")
    + LIST_ID
    + key("i")
    + 3
    + key("share")
    + 1
    + key("seat")
    + 1
    + 3 * (key("d") + BIN32)
)
"""One `{"list", "i", "share": {"seat", "d", "c", "s"}}` of a message of shares (6.5): 198."""


def shares_body(entries: int) -> int:
    """`deck.shares` (or `deck.forward`) of `entries` shares (6.5): 198 bytes a share."""
    head = 1 + key("kind") + key("deck.forward") + 2 * (key("seat") + 1) + key("shares") + 3
    return head + entries * SHARE_ENTRY


def deck_bodies(seats: int, largest_list: int, cards: int) -> dict[str, int]:
    """Each fair-deck message's largest body at a table of these sizes (section 6)."""
    key_message = 1 + key("kind") + key("deck.key") + key("seat") + 1 + key("Y") + BIN32
    key_message += key("proof") + 1 + 2 * (key("c") + BIN32)
    coin = 1 + key("kind") + key("deck.coin.commit") + key("seat") + 1 + key("coin") + LIST_ID
    return {
        "deck.key": key_message,
        "deck.shuffle": shuffle_body(largest_list),
        # a reveal publishes every share its author holds of each card it owns: its own and
        # those forwarded to it, at most one per seat and card
        "deck.shares": shares_body(seats * cards),
        "deck.coin.commit": coin + key("commit") + BIN64,
        "deck.coin.reveal": coin + key("nonce") + BIN32 + key("value") + BIN32,
    }


# What a table whose game states no sizes allows: one frame per envelope, four frames ahead.
UNSIZED = EnvelopeLimits({}, MAX_FRAME_SIZE, 4 * MAX_FRAME_SIZE)


def table_limits(
    seats: int, largest_list: int, cards: int, game_bodies: Mapping[str, int]
) -> EnvelopeLimits:
    """The limits of a table of `seats` whose lists hold at most `largest_list` cards out of
    `cards`, with the game's own kinds' largest bodies (`game_bodies`); every cap is at least
    `SMALL` and at most the frame cap. A seat's budget ahead is its whole share of one new
    deck's shuffles (one list each, every list of the deck) and four envelopes of the largest
    kind: more than an honest seat ever signs ahead (protocol.md 4.4 step 4)."""
    bodies = {**deck_bodies(seats, largest_list, cards), **game_bodies}
    sizes = {
        kind: min(MAX_FRAME_SIZE, max(SMALL, ENVELOPE + body)) for kind, body in bodies.items()
    }
    lists = -(-cards // largest_list)  # lists of one new deck
    shuffles = lists * sizes["deck.shuffle"]
    return EnvelopeLimits(sizes, SMALL, shuffles + 4 * max(sizes.values()))
