"""protocol.md says what the code does where a second implementation must match it exactly: the
option defaults of 7.1 are the engines', and 10.9 no longer contradicts 7.4 or L20 (a verifier
following the old 10.9 failed a reshuffle proof). The engine side of these orders is pinned by
the scenarios tests/scenarios/larry/L19-draw-before-discard.json and
L20-obligation-ends-before-over-limit-draw.json."""

from __future__ import annotations

import re
from pathlib import Path

from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.net.handshake import PROTOCOL_VERSION, SUPPORTED_VERSIONS

PROTOCOL = (Path(__file__).resolve().parents[1] / "protocol.md").read_text()


def section(number: str) -> str:
    """The text of section `number` (e.g. "7.1", "10.9") up to the next heading."""
    match = re.search(rf"^#+ {re.escape(number)} .*?$(.*?)(?=^#)", PROTOCOL, re.M | re.S)
    assert match, f"no section {number}"
    return " ".join(match.group(1).split())


def test_7_1_lists_the_defaults_of_both_games_options() -> None:
    text = section("7.1")
    lie = LieOptions()
    for name, value in [
        ("rounds", lie.rounds),
        ("hand_size", lie.hand_size),
        ("prizes", list(lie.prizes)),
        ("prizes_two_players", list(lie.prizes_two_players)),
    ]:
        assert f"`{name}` {value}" in text, name
    names = ", ".join(f'"{n}"' for n in lie.colour_names)
    assert f"`colour_names` [{names}]" in text
    larry = LarryOptions()
    assert f"`gloats` {larry.gloats}" in text and f"`penalty` {larry.penalty}" in text


def test_10_9_draws_first_after_a_lost_doubt_as_7_4_and_l19_say() -> None:
    text = section("10.9")
    assert "the loser draws `penalty` cards first" in text
    assert "reverses" not in text  # the old text described the order L19 replaced
    assert "draws first" in " ".join(section("7.4").split()) or "first the loser's draw" in (
        section("7.4")
    )


def test_10_9_keeps_the_play_face_up_card_out_of_the_discard_pile_until_its_obligation_ends() -> (
    None
):
    text = section("10.9")
    assert "an action card played face-up for its effect goes onto it when it is played" not in text
    assert "a **play-face-up card** played for its effect does not" in text
    assert "in_front[target]" in text


def test_10_9_says_where_the_cards_in_front_go_when_an_obligation_ends_over_the_limit() -> None:
    text = section("10.9")
    assert "before anything else that play causes, the cards in front of that seat go onto" in text
    assert "they are already in the discard pile when the over-limit draw starts" in text
    assert "only then does the pile (with the face-up number on top) go to the discard pile" in text


def test_a_card_opening_and_the_final_prize_order_are_stated_once() -> None:
    assert "A slot opens (6.5) only to a card of its own list" in section("6.3")
    assert "a card point of the list's deck id and" not in section("6.5")
    assert "each seat's in the order it won them" in section("7.8")


def test_6_1_says_libsodium_accepts_a_twin_with_the_top_bit_set() -> None:
    text = section("6.1")
    assert "s < p = 2^255 − 19" in text and "bit 255 set" in text


def test_3_3_the_hello_example_sends_the_versions_the_code_speaks() -> None:
    """The handshake's example once sent `versions: [2]` three versions after 2: it names the
    list symbolically now, and any literal list it shows is the one the code offers."""
    text = section("3.3")
    hello = re.search(r'"versions": ([^,]+), "e"', text)
    assert hello, "no hello message in 3.3"
    offered = hello.group(1)
    assert offered == "V_i" or offered == str(list(SUPPORTED_VERSIONS)), offered
    assert f"This document is version {PROTOCOL_VERSION}." in " ".join(section("8.").split())


def test_section_8_and_10_8_agree_on_receipts_and_forwards() -> None:
    """Section 8 said extra keys in a `larry.received` body were ignored and `fwd` was read
    leniently; the code (and 10.8) refuses both (tests/game/test_gift_forwards.py)."""
    text = section("8.")
    assert (
        "other keys are ignored" not in text and "and `fwd` (10.1) are read leniently" not in text
    )
    assert "any other key is a fault of its author" in text
    assert "A `fwd` (10.8) is read strictly" in text
    assert "with fields other than `slot`, `fault`, `forward`" in section("10.8")


def test_10_11_4_orders_the_end_of_a_step_as_the_lie_table_does() -> None:
    """The step's Deals are answered after its placements and claims, and the winning claims
    apply in the seed's "Done!" order (tests/game/test_lie_step_order.py, test_lie_table.py)."""
    text = section("10.11.4")
    assert "The answers come after the step's placements and claims" in text
    assert "are applied in increasing `D_k(seat)`" in text
    assert "applied in increasing seat order" not in text
    assert "a `Deal` is still the first" not in section("10.11.2")
