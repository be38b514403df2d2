"""``@frozen_dataclass``: ``@dataclass(frozen=True)`` without compiling code when it is defined.

The standard decorator writes the source of ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` for every class and compiles each,
which takes about a millisecond a class: the few dozen dataclasses that a short
``croupier deal`` or ``croupier dealer`` run imports took a good part of its start-up.
:func:`frozen_dataclass` gathers the fields as :mod:`dataclasses` does and gives the class
those six methods as closures over its fields: nothing to compile, a few tens of
microseconds a class.

The class is a dataclass like any other (:func:`dataclasses.fields`,
:func:`dataclasses.replace`, :func:`dataclasses.asdict`, :func:`dataclasses.is_dataclass`,
pickling), and its instances behave as those of ``@dataclass(frozen=True)``: the same
``__init__`` arguments (positional, keyword, defaults, ``default_factory``, ``kw_only``,
``init=False``, ``__post_init__``), the same ``repr``, equality and hash over the same
fields, the same errors on assignment and the same :func:`inspect.signature` of the
class (``tests/test_frozen.py`` compares the two).  A
method the class defines itself is kept, as the standard decorator keeps it.

>>> from dataclasses import field, replace
>>> @frozen_dataclass
... class Point:
...     '''A point.'''
...     x: int
...     y: int = 0
...     tag: str = field(default="", compare=False, repr=False, kw_only=True)
>>> p = Point(1, tag="a")
>>> p, p == Point(1, 0), hash(p) == hash((1, 0)), replace(p, y=2)
(Point(x=1, y=0), True, True, Point(x=1, y=2))
>>> p.x = 5
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'

The price is at the other end: a call of ``__init__``, ``==`` or ``hash`` takes a few
hundred nanoseconds more than the compiled code's, so a class made by the million or
hashed in inner loops (:class:`croupier.cards.Card`) keeps the standard decorator.

A class this does not handle gets the standard decorator: one with ``ClassVar``,
``InitVar`` or ``KW_ONLY`` annotations, without a docstring (the standard decorator
writes one from the signature), or with a base dataclass that is not frozen or has
such fields.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

__all__ = ["frozen_dataclass"]

T = TypeVar("T", bound=type)

_MISSING: Any = dataclasses.MISSING
_FIELD: Any = getattr(dataclasses, "_FIELD", None)  # the kind of a field (not a ClassVar)
_USABLE = _FIELD is not None and "_field_type" in getattr(dataclasses.Field, "__slots__", ())
"""Whether this Python's dataclasses are those this module was written for (3.11 to 3.13):
otherwise every class gets the standard decorator."""

_SPECIAL = ("ClassVar", "InitVar", "KW_ONLY")


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen_dataclass(cls: T) -> T:
    """``cls`` as ``@dataclass(frozen=True)`` makes it, without compiling its methods."""
    fields = _fields(cls) if _USABLE else None
    if fields is None:
        made: Any = dataclasses.dataclass(frozen=True)(cls)
        return made  # type: ignore[no-any-return]
    _make(cls, fields)
    return cls


def _make(cls: Any, fields: dict[str, Any]) -> None:
    """Give ``cls`` (its ``fields`` gathered) the methods of a frozen dataclass."""
    own = cls.__dict__
    for name in ("__setattr__", "__delattr__"):
        if name in own:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    class_hash = own.get("__hash__", _MISSING)
    explicit_hash = not (class_hash is _MISSING or (class_hash is None and "__eq__" in own))
    values = list(fields.values())  # (every one a field: _fields leaves others to dataclass)
    positional = [f for f in values if f.init and not f.kw_only]
    _check_defaults(positional)
    cls.__dataclass_params__ = _params()
    cls.__dataclass_fields__ = fields
    if "__init__" not in own:
        init = _init(cls, values, positional)
        _set(cls, "__init__", init)
        if "__signature__" not in own:
            cls.__signature__ = _Signature(init, values)
    if "__repr__" not in own:
        _set(cls, "__repr__", _repr(values))
    if "__eq__" not in own:
        _set(cls, "__eq__", _eq([f for f in values if f.compare]))
    if not explicit_hash:  # (what dataclass(eq=True, frozen=True) does)
        _set(cls, "__hash__", _hash([f for f in values if _hashed(f)]))
    names = frozenset(f.name for f in values)
    _set(cls, "__setattr__", _setattr(cls, names))
    _set(cls, "__delattr__", _delattr(cls, names))
    if "__match_args__" not in own:
        setattr(cls, "__match_args__", tuple(f.name for f in positional))  # noqa: B010
    if getattr(cls, "__abstractmethods__", None):
        import abc

        abc.update_abstractmethods(cls)


def _fields(cls: Any) -> dict[str, Any] | None:
    """The fields of ``cls``, the bases' first, as :mod:`dataclasses` gathers them (its
    class attributes set to the defaults), or ``None`` when the standard decorator must
    make the class."""
    own = cls.__dict__
    annotations: dict[str, Any] = own.get("__annotations__", {})
    if not own.get("__doc__"):
        return None
    written = " ".join(map(str, annotations.values()))
    if any(word in written for word in _SPECIAL):
        return None
    fields: dict[str, Any] = {}
    for base in cls.__mro__[-1:0:-1]:
        base_fields = getattr(base, "__dataclass_fields__", None)
        if base_fields is None:
            continue
        if not base.__dataclass_params__.frozen:
            return None  # (the standard decorator refuses it, with its message)
        for inherited in base_fields.values():
            if inherited._field_type is not _FIELD:
                return None
            fields[inherited.name] = inherited
    made: list[Any] = []
    for name, kind in annotations.items():
        default: Any = getattr(cls, name, _MISSING)
        f: Any = default
        if not isinstance(default, dataclasses.Field):
            f = dataclasses.field(default=default)
        f.name = name
        f.type = kind
        f._field_type = _FIELD
        if f.kw_only is _MISSING:
            f.kw_only = False
        if f.default is not _MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(
                f"mutable default {type(f.default)} for field {name} is not allowed: use "
                "default_factory"
            )
        made.append(f)
    for f in made:
        fields[f.name] = f
        if isinstance(getattr(cls, f.name, None), dataclasses.Field):
            if f.default is _MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    for name, value in own.items():
        if isinstance(value, dataclasses.Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    return fields


_PARAMS: list[Any] = []

_PARAMETERS = {
    "init": True,
    "repr": True,
    "eq": True,
    "order": False,
    "unsafe_hash": False,
    "frozen": True,
    "match_args": True,
    "kw_only": False,
    "slots": False,
    "weakref_slot": False,
}
"""The parameters of ``@dataclass(frozen=True)`` (those of this Python are looked up)."""


def _params() -> Any:
    """The ``__dataclass_params__`` of a frozen dataclass (one, made once, shared)."""
    if not _PARAMS:
        kind: Any = getattr(dataclasses, "_DataclassParams", None)
        names = getattr(kind, "__slots__", None)
        if names is not None and all(name in _PARAMETERS for name in names):
            params = object.__new__(kind)
            for name in names:
                setattr(params, name, _PARAMETERS[name])
        else:  # another Python: a frozen dataclass made as usual has them

            @dataclasses.dataclass(frozen=True)
            class Template:
                """A frozen dataclass without fields: its parameters are shared."""

            params = getattr(Template, "__dataclass_params__")  # noqa: B009
        _PARAMS.append(params)
    return _PARAMS[0]


def _check_defaults(positional: list[Any]) -> None:
    """The standard decorator's refusal of a field without a default after one with."""
    seen_default = False
    for f in positional:
        if f.default is not _MISSING or f.default_factory is not _MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _hashed(f: dataclasses.Field[Any]) -> bool:
    return bool(f.compare if f.hash is None else f.hash)


def _set(cls: type, name: str, function: Callable[..., Any]) -> None:
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    function.__module__ = cls.__module__
    setattr(cls, name, function)


def _values(fields: list[dataclasses.Field[Any]]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of these fields' values of an instance."""
    names = [f.name for f in fields]
    if not names:
        return lambda self: ()
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda self: (one(self),)
    return operator.attrgetter(*names)


def _init(cls: Any, fields: list[Any], positional: list[Any]) -> Callable[..., None]:
    """``__init__``: the arguments of the standard one, the same assignments, in order."""
    name = f"{cls.__qualname__}.__init__()"
    # per field: its name, how it is given (0: positional, 1: keyword only, 2: not at all),
    # its default and its default factory
    plan = [
        (f.name, 2 if not f.init else 1 if f.kw_only else 0, f.default, f.default_factory)
        for f in fields
    ]
    by_position = [f.name for f in positional]
    keywords = frozenset(p[0] for p in plan if p[1] != 2)
    most = len(by_position)
    least = sum(f.default is _MISSING and f.default_factory is _MISSING for f in positional)
    takes = (
        f"{most + 1} positional argument{'s' if most else ''}"
        if least == most
        else f"from {least + 1} to {most + 1} positional arguments"
    )
    post_init = hasattr(cls, "__post_init__")
    assign = object.__setattr__
    every = len(plan) == most  # every field positional (the quick way when all are given)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        given = len(args)
        if every and given == most and not kwargs:
            for field_name, value in zip(by_position, args, strict=True):
                assign(self, field_name, value)
            if post_init:
                self.__post_init__()
            return
        if given > most:
            raise TypeError(f"{name} takes {takes} but {given + 1} were given")
        if kwargs:
            for key in kwargs:
                if key not in keywords:
                    raise TypeError(f"{name} got an unexpected keyword argument {key!r}")
            for key in by_position[:given]:
                if key in kwargs:
                    raise TypeError(f"{name} got multiple values for argument {key!r}")
        i = 0
        missing: list[tuple[str, int]] = []
        for field_name, how, default, factory in plan:
            if how == 0 and i < given:
                value = args[i]
                i += 1
            elif how != 2 and field_name in kwargs:
                value = kwargs[field_name]
            elif factory is not _MISSING:
                value = factory()
            elif how == 2:
                continue  # init=False: the class attribute is its default, as in dataclass
            elif default is not _MISSING:
                value = default
            else:
                missing.append((field_name, how))
                continue
            assign(self, field_name, value)
        if missing:
            raise TypeError(_missing(name, missing))
        if post_init:
            self.__post_init__()

    return __init__


class _Signature:
    """The class's signature, as :func:`inspect.signature` shows that of a dataclass (its
    fields, their defaults, ``<factory>``, the keyword-only ones after ``*``): made on
    first use, for the class whose ``__init__`` is ``init``."""

    def __init__(self, init: Callable[..., None], fields: list[Any]) -> None:
        self.init = init
        self.fields = fields
        self.made: Any = None

    def __get__(self, instance: object, owner: type) -> Any:
        if instance is not None or owner.__init__ is not self.init:  # type: ignore[misc]
            raise AttributeError("__signature__")  # (inspect then looks further, as usual)
        if self.made is None:
            import inspect

            factory = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", _MISSING)
            kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            shown = [f for f in self.fields if f.init]
            parameters = [
                inspect.Parameter(
                    f.name,
                    kinds[bool(f.kw_only)],
                    default=(
                        f.default
                        if f.default is not _MISSING
                        else factory
                        if f.default_factory is not _MISSING
                        else inspect.Parameter.empty
                    ),
                    annotation=f.type,
                )
                for f in sorted(shown, key=lambda f: bool(f.kw_only))
            ]
            self.made = inspect.Signature(parameters, return_annotation=None)
        return self.made


def _missing(name: str, missing: list[tuple[str, int]]) -> str:
    """Python's own message for missing arguments (the positional ones first)."""
    how = missing[0][1]
    names = [repr(n) for n, h in missing if h == how]
    kind = "positional" if how == 0 else "keyword-only"
    if len(names) == 1:
        listed = names[0]
    elif len(names) == 2:
        listed = f"{names[0]} and {names[1]}"
    else:
        listed = ", ".join(names[:-1]) + f", and {names[-1]}"
    plural = "s" if len(names) > 1 else ""
    return f"{name} missing {len(names)} required {kind} argument{plural}: {listed}"


def _repr(fields: list[dataclasses.Field[Any]]) -> Callable[[Any], str]:
    """``__repr__``: ``Class(a=1, b='x')`` over the fields shown, ``...`` when recursive."""
    from _thread import get_ident

    names = [f.name for f in fields if f.repr]
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            shown = ", ".join([f"{n}={getattr(self, n)!r}" for n in names])
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(fields: list[dataclasses.Field[Any]]) -> Callable[[Any, object], Any]:
    """``__eq__``: instances of the very same class, compared field by field (as tuples)."""
    values = _values(fields)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(fields: list[dataclasses.Field[Any]]) -> Callable[[Any], int]:
    """``__hash__``: the hash of the tuple of the compared fields (those not ``hash=False``)."""
    values = _values(fields)

    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _setattr(cls: Any, names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    FrozenInstanceError = dataclasses.FrozenInstanceError

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _delattr(cls: Any, names: frozenset[str]) -> Callable[[Any, str], None]:
    FrozenInstanceError = dataclasses.FrozenInstanceError

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__
