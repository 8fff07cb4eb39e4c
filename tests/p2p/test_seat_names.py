"""Two seats with the same name are told apart wherever seats are named (peers, watchers,
replays): each gets the first group of its key code, the code people compare aloud."""

from __future__ import annotations

from fairdeal.p2p.identity import Identity, distinct_names, fingerprint_code


def test_a_shared_name_gets_each_seats_code_and_a_unique_one_is_left_alone() -> None:
    people = [
        Identity.generate(name, lambda n, i=i: bytes([i + 1]) * n)
        for i, name in enumerate(["root", "Ada (bot)", "root"])
    ]
    keys = [p.key for p in people]
    shown = distinct_names([p.name for p in people], keys)
    assert shown[1] == "Ada (bot)"
    assert shown[0] == f"root ·{fingerprint_code(keys[0])[:5]}"
    assert shown[2] == f"root ·{fingerprint_code(keys[2])[:5]}"
    assert len(set(shown)) == 3


def test_a_renamed_identity_keeps_its_key_and_saves_nothing(tmp_path: object) -> None:
    me = Identity.generate("root", lambda n: b"\x07" * n)
    bot = me.named("root (bot)")
    assert bot.key == me.key and bot.name == "root (bot)" and me.name == "root"
