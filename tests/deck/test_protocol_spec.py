"""protocol.md §6 is enough to verify our proofs: an independent verifier written from the text.

It uses only hashlib and raw Ristretto255 calls through rbcl (no p2p.deck code) on messages
produced by real sessions, so a divergence between the document and the implementation fails
here.
"""

from __future__ import annotations

import hashlib

import rbcl

from fairdeal.p2p.deck import Slot

from .conftest import TABLE_ID, shuffled_table

L = 2**252 + 27742317777372353535851937790883648493
G = rbcl.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))


def lp(x: bytes) -> bytes:
    return len(x).to_bytes(4, "big") + x


def H(label: str, *items: bytes) -> bytes:
    h = hashlib.sha512(lp(b"fairdeal/deck/v2/" + label.encode()))
    for item in items:
        h.update(lp(item))
    return h.digest()


def Hs(label: str, *items: bytes) -> int:
    return int.from_bytes(H(label, *items), "little") % L


def Hp(label: str, *items: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_from_hash(H(label, *items))


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def sc(b: bytes) -> int:
    value = int.from_bytes(b, "little")
    assert value < L
    return value


def mul(k: int, p: bytes) -> bytes:
    return rbcl.crypto_scalarmult_ristretto255((k % L).to_bytes(32, "little"), p)


def base(k: int) -> bytes:
    return rbcl.crypto_scalarmult_ristretto255_base((k % L).to_bytes(32, "little"))


def add(*ps: bytes) -> bytes:
    total = ps[0]
    for p in ps[1:]:
        total = rbcl.crypto_core_ristretto255_add(total, p)
    return total


def neg(p: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_sub(bytes(32), p)


def check_key(msg: dict) -> bool:
    y, c, s = msg["Y"], sc(msg["proof"]["c"]), sc(msg["proof"]["s"])
    t = add(base(s), neg(mul(c, y)))
    return c == Hs("key", TABLE_ID, u64(msg["seat"]), y, t)


def check_shuffle(msg: dict, inputs: list[list[bytes]], joint: bytes) -> bool:
    n = len(inputs)
    out, p = msg["deck"], msg["proof"]
    assert set(p) == {"c", "c_hat", "t", "t_hat", "s", "s_hat", "s_tilde"}
    c, chat, t, that = p["c"], p["c_hat"], p["t"], p["t_hat"]
    assert len(t) == 5 and len(c) == len(chat) == len(that) == n
    s1, s2, s3, s4 = (sc(x) for x in p["s"])
    shat, stil = [sc(x) for x in p["s_hat"]], [sc(x) for x in p["s_tilde"]]
    h = [Hp("pedersen", u64(i)) for i in range(n + 1)]
    items = [TABLE_ID, msg["list"].encode(), u64(msg["seat"]), joint, u64(n)]
    items += [x for pair in inputs for x in pair] + [x for pair in out for x in pair] + c
    seed = H("shuffle/statement", *items)
    u = [Hs("shuffle/u", seed, u64(j)) for j in range(n)]
    e = Hs("shuffle/challenge", seed, *chat, *t, *that)
    uprod = 1
    for x in u:
        uprod = uprod * x % L
    cbar = add(*c, *(neg(hi) for hi in h[1:]))
    chat_total = add(chat[-1], neg(mul(uprod, h[0])))
    ctil = add(*(mul(u[j], c[j]) for j in range(n)))
    atil = add(*(mul(u[j], inputs[j][0]) for j in range(n)))
    btil = add(*(mul(u[j], inputs[j][1]) for j in range(n)))
    e1 = add(base(s1), neg(mul(e, cbar)))
    e2 = add(base(s2), neg(mul(e, chat_total)))
    e3 = add(base(s3), neg(mul(e, ctil)), *(mul(stil[i], h[i + 1]) for i in range(n)))
    e41 = add(*(mul(stil[i], out[i][1]) for i in range(n)), neg(mul(e, btil)), neg(mul(s4, joint)))
    e42 = add(*(mul(stil[i], out[i][0]) for i in range(n)), neg(mul(e, atil)), neg(base(s4)))
    chain = [h[0], *chat]
    ehat = [add(base(shat[i]), neg(mul(e, chain[i + 1])), mul(stil[i], chain[i])) for i in range(n)]
    return [e1, e2, e3, e41, e42] == list(t) and ehat == list(that)


def check_share(share: dict, public: bytes, card: list[bytes]) -> bool:
    a, b = card
    c, s, d = sc(share["c"]), sc(share["s"]), share["d"]
    t1 = add(base(s), neg(mul(c, public)))
    t2 = add(mul(s, a), neg(mul(c, d)))
    return c == Hs("share", TABLE_ID, u64(share["seat"]), public, a, b, d, t1, t2)


def test_an_independent_verifier_accepts_a_whole_run_from_the_document() -> None:
    cards = 5
    table = shuffled_table(3, cards, seed=77)
    table.command(lambda s: s.deal({Slot("d0", 0): 2}))
    table.command(lambda s: s.reveal([Slot("d0", 0), Slot("d0", 3)]))
    table.command(lambda s: s.coin("first"))

    keys = {m["seat"]: m for _, m in table.log if m["kind"] == "deck.key"}
    assert all(check_key(m) for m in keys.values())
    joint = add(*(keys[s]["Y"] for s in range(3)))
    assert joint == table.sessions[0].joint_key

    deck = [[G, add(Hp("card", b"larry", u64(c)), joint)] for c in range(cards)]
    for _, msg in table.log:
        if msg["kind"] == "deck.shuffle":
            assert check_shuffle(msg, deck, joint)
            tampered = {**msg, "list": "other"}
            assert not check_shuffle(tampered, deck, joint)
            deck = msg["deck"]

    opened: dict[int, list[bytes]] = {}
    for _, msg in table.log:
        if msg["kind"] == "deck.shares":
            for entry in msg["shares"]:
                share = entry["share"]
                card = deck[entry["i"]]
                assert check_share(share, keys[share["seat"]]["Y"], card)
                opened.setdefault(entry["i"], []).append(share["d"])
    for index in (0, 3):
        point = add(deck[index][1], neg(add(*opened[index])))
        face = table.sessions[1].revealed_card(Slot("d0", index))
        assert point == Hp("card", b"larry", u64(face))

    commits = {m["seat"]: m for _, m in table.log if m["kind"] == "deck.coin.commit"}
    reveals = {m["seat"]: m for _, m in table.log if m["kind"] == "deck.coin.reveal"}
    for seat, reveal in reveals.items():
        expected = H("coin/commit", TABLE_ID, b"first", u64(seat), reveal["nonce"], reveal["value"])
        assert commits[seat]["commit"] == expected
    seed = H("coin/seed", TABLE_ID, b"first", *(reveals[s]["value"] for s in range(3)))
    assert seed == table.sessions[0].coin_seed("first")
