"""Plain-data codec helpers shared by every game: engine objects as msgpack-compatible data.

Encoding (protocol.md section 7): a dataclass becomes a dict {"type": ClassName, field: value,
...}; tuples become lists; enums their string value; the `revealed` map a list of [slot, face]
pairs sorted by slot. Decoding is strict: an unknown type or field, a missing field without
default, or a value of the wrong type raises DecodeError saying where.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Annotated, Any, Generic, NamedTuple, TypeVar, Union, get_args, get_origin

from fairdeal.engine import events, requests
from fairdeal.engine.requests import Request, Resolution

T = TypeVar("T")


class Bounds(NamedTuple):
    """Field metadata, not a wire type: `Annotated[int, Bounds(lo, hi)]` makes the codec refuse an
    integer outside lo..hi (Larry's announcements, L6 as bounded in RULES.md)."""

    lo: int
    hi: int


class DecodeError(ValueError):
    """Plain data that is not a valid encoding; the message names the offending path."""


def registry(*modules: types.ModuleType) -> dict[str, type]:
    """Class name -> dataclass for every dataclass defined in `modules` (a game's codec table)."""
    classes: dict[str, type] = {}
    for module in modules:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and dataclasses.is_dataclass(value)
                and value.__module__ == module.__name__
            ):
                classes[value.__name__] = value
    return classes


def to_data(obj: Any) -> Any:
    """The plain-data form of an engine object (or of a tuple/list of them)."""
    if obj is None or (isinstance(obj, bool | int | str) and not isinstance(obj, Enum)):
        return obj
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, tuple | list):
        return [to_data(item) for item in obj]
    if isinstance(obj, Mapping):
        return [[to_data(key), to_data(value)] for key, value in sorted(obj.items())]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        data: dict[str, Any] = {"type": type(obj).__name__}
        for field in _fields(type(obj)):
            data[field.name] = to_data(getattr(obj, field.name))
        return data
    raise TypeError(f"cannot encode {type(obj).__name__}")


def from_data(data: Any, expected: Any) -> Any:
    """Decode `data` as an instance of `expected` (a class, or a union alias such as Action)."""
    return _decode(data, expected, "$")


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(dataclasses.fields(cls))


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = __import__(cls.__module__, fromlist=["_"])
    return typing.get_type_hints(cls, globalns=vars(module), include_extras=True)


def _decode(data: Any, expected: Any, path: str) -> Any:
    origin = get_origin(expected)
    if origin is Annotated:
        base, *metadata = get_args(expected)
        value = _decode(data, base, path)
        for bounds in metadata:
            if isinstance(bounds, Bounds) and not bounds.lo <= value <= bounds.hi:
                raise DecodeError(f"{path}: {value} is outside {bounds.lo}..{bounds.hi}")
        return value
    if origin in (Union, types.UnionType):
        members = get_args(expected)
        if data is None:
            if type(None) in members:
                return None
            raise DecodeError(f"{path}: null is not allowed here")
        classes = [m for m in members if isinstance(m, type) and dataclasses.is_dataclass(m)]
        if classes:
            return _decode_dataclass(data, classes, path)
        for member in members:
            if member is not type(None):
                return _decode(data, member, path)
    if expected is Any:
        return data
    if isinstance(expected, type) and dataclasses.is_dataclass(expected):
        return _decode_dataclass(data, [expected], path)
    if isinstance(expected, type) and issubclass(expected, Enum):
        try:
            return expected(data)
        except ValueError:
            raise DecodeError(f"{path}: {data!r} is not a {expected.__name__}") from None
    if expected is bool:
        if type(data) is not bool:
            raise DecodeError(f"{path}: expected a boolean, got {type(data).__name__}")
        return data
    if expected is int:
        if type(data) is not int:
            raise DecodeError(f"{path}: expected an integer, got {type(data).__name__}")
        return data
    if expected is str:
        if type(data) is not str:
            raise DecodeError(f"{path}: expected a string, got {type(data).__name__}")
        return data
    if origin is tuple:
        if not isinstance(data, list | tuple):
            raise DecodeError(f"{path}: expected a list, got {type(data).__name__}")
        args = get_args(expected)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(item, args[0], f"{path}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise DecodeError(f"{path}: expected {len(args)} items, got {len(data)}")
        return tuple(
            _decode(item, arg, f"{path}[{i}]")
            for i, (item, arg) in enumerate(zip(data, args, strict=True))
        )
    if origin is Mapping or origin is dict:
        key_type, value_type = get_args(expected)
        if not isinstance(data, list | tuple):
            raise DecodeError(f"{path}: expected a list of [key, value] pairs")
        result: dict[Any, Any] = {}
        for i, pair in enumerate(data):
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise DecodeError(f"{path}[{i}]: expected a [key, value] pair")
            key = _decode(pair[0], key_type, f"{path}[{i}][0]")
            if key in result:
                raise DecodeError(f"{path}[{i}]: duplicate key {key!r}")
            result[key] = _decode(pair[1], value_type, f"{path}[{i}][1]")
        return result
    raise DecodeError(f"{path}: cannot decode into {expected!r}")


def _decode_dataclass(data: Any, classes: list[type], path: str) -> Any:
    if not isinstance(data, dict):
        raise DecodeError(f"{path}: expected a map, got {type(data).__name__}")
    name = data.get("type")
    allowed = {cls.__name__: cls for cls in classes}
    if name not in allowed:
        raise DecodeError(f"{path}: type {name!r} is not one of {', '.join(sorted(allowed))}")
    cls = allowed[name]
    fields = _fields(cls)
    known = {field.name for field in fields}
    unknown = sorted(str(key) for key in data if key != "type" and key not in known)
    if unknown:
        raise DecodeError(f"{path}: unknown field(s) {', '.join(unknown)} for {name}")
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for field in fields:
        if field.name in data:
            values[field.name] = _decode(
                data[field.name], hints[field.name], f"{path}.{field.name}"
            )
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise DecodeError(f"{path}: {name} needs field {field.name!r}")
    return cls(**values)


ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")
StateT = TypeVar("StateT")


class GameCodec(Generic[ActionT, EventT, StateT]):
    """One game's plain-data codec: the classes its messages may name and a decoder for each kind.

    A game builds one from its modules and its union aliases, and its codec module re-exports the
    bound decoders (engine/<game>/codec.py). Decoding is `from_data`'s strict decoding; the result
    has the declared type because `from_data` checked every field against it.
    """

    def __init__(
        self,
        modules: tuple[types.ModuleType, ...],
        action_type: Any,
        event_type: Any,
        state_type: type[StateT],
    ) -> None:
        actions, *rest = modules
        # Every class a plain-data message of this game may name: its own and the shared ones.
        self.classes: dict[str, type] = registry(actions, *rest, events, requests)
        self.action_type = action_type  # a union alias (Action): a type form, not a class
        self.event_type = event_type
        self.state_type = state_type

    def action_from_data(self, data: Any) -> ActionT:
        action: ActionT = from_data(data, self.action_type)
        return action

    def event_from_data(self, data: Any) -> EventT:
        event: EventT = from_data(data, self.event_type)
        return event

    def state_from_data(self, data: Any) -> StateT:
        state: StateT = from_data(data, self.state_type)
        return state

    def decoders(
        self,
    ) -> tuple[Callable[[Any], ActionT], Callable[[Any], EventT], Callable[[Any], StateT]]:
        """The game's own decoders, for its codec module to export by name."""
        return self.action_from_data, self.event_from_data, self.state_from_data


def resolution_from_data(data: Any) -> Resolution:
    """A driver's answer, in any game."""
    resolution: Resolution = from_data(data, Resolution)
    return resolution


def request_from_data(data: Any) -> Request:
    """A request to the driver, in any game."""
    request: Request = from_data(data, Request)
    return request
