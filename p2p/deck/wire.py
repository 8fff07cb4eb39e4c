"""Strict readers for plain (msgpack-compatible) data: exact types, lengths and sizes.

Every reader raises `ParseError` with the path of the offending field; the caller re-blames it on
the seat that sent the data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .errors import ParseError
from .group import Point, parse_point, parse_scalar

T = TypeVar("T")

MAX_LIST = 4096
"""No list in a fair-deck message is longer (a deck has at most 96 cards; slack for batches)."""
MAX_TEXT = 64
MAX_BYTES = 64


def fields(
    data: object, what: str, required: set[str], optional: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """A dict with exactly the required keys (plus optional ones); unknown keys are rejected."""
    if not isinstance(data, Mapping):
        raise ParseError(None, f"{what}: expected a map")
    keys = set(data)
    missing = required - keys
    extra = keys - required - set(optional)
    if missing:
        raise ParseError(None, f"{what}: missing field(s) {sorted(missing)}")
    if extra:
        raise ParseError(None, f"{what}: unknown field(s) {sorted(map(str, extra))}")
    return dict(data)


def integer(value: object, what: str, low: int, high: int) -> int:
    """An int (not a bool) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParseError(None, f"{what}: expected an integer")
    if not low <= value <= high:
        raise ParseError(None, f"{what}: {value} outside [{low}, {high}]")
    return value


def short_text(value: object, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise ParseError(None, f"{what}: expected a string of 1 to {MAX_TEXT} characters")
    return value


def raw_bytes(value: object, what: str, length: int | None = None) -> bytes:
    if not isinstance(value, bytes):
        raise ParseError(None, f"{what}: expected bytes")
    if length is not None and len(value) != length:
        raise ParseError(None, f"{what}: expected {length} bytes, got {len(value)}")
    if length is None and not 0 < len(value) <= MAX_BYTES:
        raise ParseError(None, f"{what}: expected 1 to {MAX_BYTES} bytes")
    return value


def sequence(
    value: object, what: str, item: Callable[[object, str], T], length: int | None = None
) -> list[T]:
    """A list (msgpack arrays may arrive as lists or tuples) of bounded or exact length."""
    if not isinstance(value, list | tuple):
        raise ParseError(None, f"{what}: expected a list")
    if length is not None and len(value) != length:
        raise ParseError(None, f"{what}: expected {length} items, got {len(value)}")
    if len(value) > MAX_LIST:
        raise ParseError(None, f"{what}: more than {MAX_LIST} items")
    return [item(v, f"{what}[{i}]") for i, v in enumerate(value)]


def point(value: object, what: str) -> Point:
    return parse_point(value, what)


def scalar(value: object, what: str) -> int:
    return parse_scalar(value, what)


def points(value: object, what: str, length: int | None = None) -> list[Point]:
    return sequence(value, what, point, length)


def scalars(value: object, what: str, length: int | None = None) -> list[int]:
    return sequence(value, what, scalar, length)


def kind_of(data: Any) -> str:
    if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
        raise ParseError(None, "message: expected a map with a string 'kind'")
    kind: str = data["kind"]
    return kind
