"""A faster __init__ for the engine's frozen, slotted dataclasses, which games make by the thousand.

A frozen dataclass's generated __init__ sets every field with `object.__setattr__(self, name,
value)`, to get past its own __setattr__ (which refuses). `quick_init` gives the class an
__init__ that sets each field through its slot's descriptor instead: the same fields in the same
order, about twice as fast for a four-field event. Nothing else changes: the class is still the
same dataclass (fields, equality, hashing, repr, immutability after __init__, and the codec's
strict decoding, which calls it by keyword: engine/codec.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Replace `cls.__init__` (a frozen dataclass with slots) by one that fills its slots directly.

    Defaults are kept; a default factory or __post_init__ is refused (none of the classes it is
    meant for has one), so the new __init__ does exactly what the old one did.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__: keep the dataclass's __init__")
    namespace: dict[str, Any] = {"__name__": cls.__module__}  # tracebacks and profilers name it
    arguments: list[str] = []
    body: list[str] = []
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]  # checked above
        name = field.name
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{name}: only plain fields and defaults are supported")
        namespace[f"_set_{name}"] = getattr(cls, name).__set__  # the slot's own setter
        if field.default is dataclasses.MISSING:
            arguments.append(name)
        else:
            namespace[f"_default_{name}"] = field.default
            arguments.append(f"{name}=_default_{name}")
        body.append(f"    _set_{name}(self, {name})\n")
    header = f"def __init__(self, {', '.join(arguments)}):\n"
    source = header + ("".join(body) or "    pass\n")
    exec(source, namespace)  # the way dataclasses builds __init__: one function per class
    init = namespace["__init__"]
    old = cls.__dict__["__init__"]
    init.__qualname__ = old.__qualname__
    init.__annotations__ = old.__annotations__
    init.__doc__ = old.__doc__
    init.__module__ = cls.__module__
    type.__setattr__(cls, "__init__", init)
    return cls
