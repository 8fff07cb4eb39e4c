"""The TXT record of a table: what we publish parses back, and bad records are refused."""

from __future__ import annotations

import pytest

from fairdeal.p2p.lobby.discovery import (
    MAX_INSTANCE_BYTES,
    BadAdvertisement,
    TableAd,
    instance_label,
)

TABLE_ID = "0123456789abcdef0123456789abcdef"


def make_ad(**changes: object) -> TableAd:
    fields: dict[str, object] = {
        "table_id": TABLE_ID,
        "name": "Friday night",
        "game": "larry",
        "seats_taken": 1,
        "seats_total": 4,
        "host_fingerprint": "00ff00ff12345678",
    }
    fields.update(changes)
    return TableAd(**fields)  # type: ignore[arg-type]


def as_wire(txt: dict[str, str]) -> dict[bytes, bytes | None]:
    return {key.encode(): value.encode() for key, value in txt.items()}


def test_txt_round_trip() -> None:
    ad = make_ad()
    txt = ad.to_txt()
    assert txt == {
        "proto": "5",
        "game": "larry",
        "table": "Friday night",
        "seats": "1/4",
        "fp": "00ff00ff12345678",
        "tid": TABLE_ID,
        "state": "open",
    }
    assert TableAd.from_txt(as_wire(txt)) == ad


def test_a_started_table_says_it_plays_and_an_older_record_reads_as_open() -> None:
    """A started table stays listed for watchers (protocol.md 2, 4.8); a record without
    `state` (an older host, which withdrew it at the start) is a table that takes players."""
    playing = make_ad(seats_taken=4, playing=True)
    assert playing.to_txt()["state"] == "playing"
    assert TableAd.from_txt(as_wire(playing.to_txt())) == playing
    assert playing.status == "playing"
    older = make_ad().to_txt()
    del older["state"]
    assert not TableAd.from_txt(as_wire(older)).playing


def test_unknown_txt_keys_are_ignored() -> None:
    wire = as_wire(make_ad().to_txt()) | {b"future": b"x", b"flag": None}
    assert TableAd.from_txt(wire) == make_ad()


def test_seats_filling_up_changes_only_the_count() -> None:
    ad = make_ad().with_seats_taken(4)
    assert ad.to_txt()["seats"] == "4/4"
    assert ad.is_full
    assert not make_ad().is_full
    assert (make_ad().status, ad.status) == ("open", "full")


def test_a_table_of_a_newer_protocol_is_listed_but_marked() -> None:
    wire = as_wire(make_ad().to_txt() | {"proto": "99"})
    assert TableAd.from_txt(wire).status == "needs protocol 99"


@pytest.mark.parametrize(
    ("key", "value", "complaint"),
    [
        ("seats", "5/4", "out of range"),
        ("seats", "two/4", "taken/total"),
        ("seats", "1/1", "out of range"),
        ("seats", "1/9", "out of range"),
        ("proto", "x", "version"),
        ("proto", "0", "not positive"),
        ("tid", "00", "hex digits"),
        ("tid", "Z" * 32, "hex digits"),
        ("game", "Larry!", "game id"),
        ("table", "", "table name"),
        ("table", "x" * 41, "table name"),
        ("table", "bell\x07", "control"),
        ("fp", "", "16 hex digits"),
        ("fp", "00FF00FF12345678", "16 hex digits"),
        ("fp", "00ff00ff1234567", "16 hex digits"),
        ("fp", "00ff00ff 1234567", "16 hex digits"),
        ("state", "over", "neither 'open' nor 'playing'"),
    ],
)
def test_bad_field_is_refused(key: str, value: str, complaint: str) -> None:
    txt = make_ad().to_txt() | {key: value}
    with pytest.raises(BadAdvertisement, match=complaint):
        TableAd.from_txt(as_wire(txt))


def test_missing_field_is_named() -> None:
    wire = as_wire(make_ad().to_txt())
    del wire[b"fp"], wire[b"tid"]
    with pytest.raises(BadAdvertisement, match="lacks fp, tid"):
        TableAd.from_txt(wire)


def test_undecodable_field_is_refused() -> None:
    wire = as_wire(make_ad().to_txt()) | {b"table": b"\xff\xfe"}
    with pytest.raises(BadAdvertisement, match="not valid text"):
        TableAd.from_txt(wire)


def test_instance_label_fits_dns_and_stays_readable() -> None:
    label = instance_label(make_ad(name="é" * 20))  # 40 bytes, 20 characters
    assert len(label.encode()) <= MAX_INSTANCE_BYTES
    assert label.endswith(f" ({TABLE_ID[:8]})")
    assert instance_label(make_ad(name="a.b")) == f"a b ({TABLE_ID[:8]})"


def test_the_host_code_travels_in_the_txt_record_and_reads_as_at_the_table() -> None:
    """The lobby shows the host's key as the code compared aloud at the table."""
    from fairdeal.p2p.identity import Identity

    host = Identity.generate("Ben", lambda n: bytes(range(n)))
    ad = make_ad(host_fingerprint=host.fingerprint, host_code=host.code.replace(" ", ""))
    txt = ad.to_txt()
    assert txt["code"] == host.code.replace(" ", "")
    parsed = TableAd.from_txt(as_wire(txt))
    assert parsed == ad
    assert parsed.host_key_text == host.code  # "01234 56789 …", exactly the table's code


def test_a_record_without_a_code_still_parses_and_shows_the_hex_fingerprint() -> None:
    parsed = TableAd.from_txt(as_wire(make_ad().to_txt()))
    assert parsed.host_code == "" and parsed.host_key_text == "00ff00ff12345678"


@pytest.mark.parametrize("code", ["1234", "1" * 26, "a" * 25, "01234 56789 13579 24680 11"])
def test_a_malformed_host_code_is_refused(code: str) -> None:
    wire = as_wire(make_ad().to_txt() | {"code": code})
    with pytest.raises(BadAdvertisement, match="host code"):
        TableAd.from_txt(wire)
