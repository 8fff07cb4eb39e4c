"""Canonical msgpack: the one byte string a value has, so that signatures can be checked.

Allowed values: None, bool, int (-2**63 .. 2**64-1), str, bytes, lists (tuples become lists)
and maps with str keys. Maps are written with keys sorted by their UTF-8 bytes; msgpack-python
already writes every int, str, bin, array and map header in its shortest form. Floats and
extension types are refused: they have more than one encoding.
"""

from __future__ import annotations

from typing import Any

import msgpack

MIN_INT = -(1 << 63)
MAX_INT = (1 << 64) - 1
MAX_DEPTH = 32


class NotCanonical(ValueError):
    """A value that has no canonical encoding, or bytes that are not one."""


def normalise(value: Any, depth: int = 0) -> Any:
    """The value with sorted maps, checked for allowed types."""
    if depth > MAX_DEPTH:
        raise NotCanonical(f"nested deeper than {MAX_DEPTH}")
    if value is None or isinstance(value, bool | str | bytes):
        return value
    if isinstance(value, int):
        if not MIN_INT <= value <= MAX_INT:
            raise NotCanonical("integer out of the 64-bit range")
        return value
    if isinstance(value, list | tuple):
        return [normalise(item, depth + 1) for item in value]
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise NotCanonical("map keys must be strings")
        return {
            key: normalise(value[key], depth + 1)
            for key in sorted(value, key=lambda k: k.encode("utf-8", "surrogatepass"))
        }
    raise NotCanonical(f"{type(value).__name__} has no canonical encoding")


def pack_canonical(value: Any) -> bytes:
    try:
        packed: bytes = msgpack.packb(normalise(value), use_bin_type=True)
        return packed
    except UnicodeEncodeError:
        raise NotCanonical("string is not valid UTF-8") from None


def _reject_ext(code: int, data: bytes) -> Any:
    raise NotCanonical(f"extension type {code}")


def unpack_canonical(data: bytes) -> Any:
    """Decode and insist that `data` is exactly the canonical encoding of what it decodes to."""
    try:
        value = msgpack.unpackb(
            data, raw=False, strict_map_key=True, use_list=True, ext_hook=_reject_ext
        )
    except NotCanonical:
        raise
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        raise NotCanonical(f"not msgpack ({type(exc).__name__})") from None
    _check_decoded(value, 0)
    if msgpack.packb(value, use_bin_type=True) != data:
        raise NotCanonical("not in canonical form")
    return value


_SCALARS = (type(None), bool, int, str, bytes)


def _check_decoded(value: Any, depth: int) -> None:
    """Allowed types only, maps with sorted string keys, the same depth limit as `normalise`.
    (UTF-8 byte order is code point order, so comparing the str keys compares their
    encodings.) Re-packing then checks that every header had its shortest form."""
    if depth > MAX_DEPTH:
        raise NotCanonical(f"nested deeper than {MAX_DEPTH}")
    kind = type(value)
    if kind in _SCALARS:
        return
    if kind is list:
        for item in value:
            _check_decoded(item, depth + 1)
        return
    if kind is dict:
        keys = list(value)
        if not all(type(key) is str for key in keys):
            raise NotCanonical("map keys must be strings")
        if keys != sorted(keys):
            raise NotCanonical("map keys are not in canonical order")
        for item in value.values():
            _check_decoded(item, depth + 1)
        return
    raise NotCanonical(f"{kind.__name__} has no canonical encoding")
