"""``@frozen_dataclass`` makes the classes ``@dataclass(frozen=True)`` makes: the same
fields, arguments, repr, equality, hash, errors, pickling and helpers."""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable
from dataclasses import FrozenInstanceError, field
from typing import Any

import pytest

from croupier.frozen import frozen_dataclass

Decorator = Callable[[type], type]
STANDARD: Decorator = dataclasses.dataclass(frozen=True)


def _classes(decorate: Decorator) -> dict[str, Any]:
    """The same class definitions, made by ``decorate``."""

    @decorate
    class Plain:
        """Fields with and without defaults."""

        a: int
        b: str = "x"
        c: tuple[int, ...] = ()

    @decorate
    class Options:
        """Every kind of field."""

        a: int
        b: list[int] = field(default_factory=list)
        hidden: str = field(default="h", repr=False)
        loose: float = field(default=0.5, compare=False)
        unhashed: int = field(default=1, hash=False)
        tag: str = field(default="", kw_only=True)
        needed: int = field(kw_only=True, default=7)
        later: int = field(default=3, init=False)

    @decorate
    class Empty:
        """No fields at all."""

    @decorate
    class Base:
        """A base with a keyword-only field."""

        pos: int = field(default=0, compare=False, repr=False, kw_only=True)

    @decorate
    class Child(Base):
        """Fields after the base's."""

        value: int
        name: str = "n"

    @decorate
    class Own(Base):
        """Methods of its own, kept."""

        value: int

        def __repr__(self) -> str:
            return f"<Own {self.value}>"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Own) and other.value % 10 == self.value % 10

        def __hash__(self) -> int:
            return self.value % 10

    @decorate
    class EqOnly:
        """Its own equality: the hash is the fields' (as the standard decorator gives it)."""

        value: int

        def __eq__(self, other: object) -> bool:
            return isinstance(other, EqOnly) and other.value == self.value

    @decorate
    class Checked:
        """A __post_init__ that checks."""

        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

    @decorate
    class Recursive:
        """A field that may hold the instance itself."""

        items: list[Any] = field(default_factory=list)

    return {
        "Plain": Plain,
        "Options": Options,
        "Empty": Empty,
        "Child": Child,
        "Own": Own,
        "EqOnly": EqOnly,
        "Checked": Checked,
        "Recursive": Recursive,
        "Base": Base,
    }


OURS = _classes(frozen_dataclass)
THEIRS = _classes(STANDARD)

CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("Plain", (1,), {}),
    ("Plain", (1, "y", (2, 3)), {}),
    ("Plain", (), {"a": 1, "c": (4,)}),
    ("Plain", (1, 2, 3, 4), {}),
    ("Plain", (), {}),
    ("Plain", (1,), {"a": 2}),
    ("Plain", (1,), {"d": 2}),
    ("Options", (1,), {}),
    ("Options", (1, [2], "s", 0.25, 9), {"tag": "t", "needed": 1}),
    ("Options", (1,), {"later": 5}),
    ("Options", (1, [], "s", 0.5, 1, "t"), {}),
    ("Empty", (), {}),
    ("Empty", (1,), {}),
    ("Child", (5,), {"pos": 3}),
    ("Child", (), {"pos": 3}),
    ("Child", (5, "m"), {}),
    ("Own", (15,), {}),
    ("EqOnly", (2,), {}),
    ("Checked", (1,), {}),
    ("Checked", (-1,), {}),
]


def _outcome(classes: dict[str, Any], name: str, args: tuple[Any, ...], kwargs: dict[str, Any]):  # type: ignore[no-untyped-def]
    try:
        obj = classes[name](*args, **kwargs)
    except (TypeError, ValueError) as exc:
        return ("error", type(exc), str(exc).replace("_classes.<locals>.", ""))
    fields = [
        (f.name, f.init, f.repr, f.compare, f.hash, f.kw_only) for f in dataclasses.fields(obj)
    ]
    return ("ok", repr(obj), vars(obj), fields, dataclasses.astuple(obj))


@pytest.mark.parametrize(("name", "args", "kwargs"), CALLS)
def test_the_same_arguments_values_and_errors(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    assert _outcome(OURS, name, args, kwargs) == _outcome(THEIRS, name, args, kwargs)


@pytest.mark.parametrize(
    ("name", "one", "other"),
    [
        ("Plain", (1,), (1,)),
        ("Plain", (1,), (2,)),
        ("Options", (1,), (1,)),
        ("Options", ((1, [2], "a", 0.1)), (1, [2], "b", 0.2)),
        ("Options", ((1, [2], "a", 0.1, 5)), (1, [2], "a", 0.1, 6)),
        ("Empty", (), ()),
        ("Own", (3,), (13,)),
        ("EqOnly", (3,), (3,)),
    ],
)
def test_the_same_equality_and_hash(
    name: str, one: tuple[Any, ...], other: tuple[Any, ...]
) -> None:
    results = []
    for classes in (OURS, THEIRS):
        a, b = classes[name](*one), classes[name](*other)
        try:
            hashes: object = (hash(a) == hash(b), hash(a) == hash(a))
        except TypeError as exc:  # a list field: unhashable, in both
            hashes = str(exc)
        results.append((a == b, a != b, a == "other", hashes))
    assert results[0] == results[1]


def test_a_child_is_equal_to_no_parent_and_keeps_the_base_field() -> None:
    for classes in (OURS, THEIRS):
        child = classes["Child"](1, pos=4)
        assert child != classes["Base"](pos=4) and child == classes["Child"](1, pos=9)
        assert child.pos == 4 and repr(child).endswith("Child(value=1, name='n')")


@pytest.mark.parametrize("name", sorted(OURS))
def test_the_same_signature(name: str) -> None:
    import inspect

    assert inspect.signature(OURS[name]) == inspect.signature(THEIRS[name])
    assert str(inspect.signature(OURS[name])) == str(inspect.signature(THEIRS[name]))


def test_frozen_the_same_way() -> None:
    messages = []
    for classes in (OURS, THEIRS):
        obj = classes["Child"](1)
        with pytest.raises(FrozenInstanceError) as caught:
            obj.value = 2
        messages.append(str(caught.value))
        with pytest.raises(FrozenInstanceError) as caught:
            del obj.name
        messages.append(str(caught.value))
        with pytest.raises(FrozenInstanceError):
            obj.other = 1
    assert (
        messages[:2]
        == messages[2:]
        == ["cannot assign to field 'value'", "cannot delete field 'name'"]
    )


def test_helpers_pickle_and_class_attributes() -> None:
    for classes in (OURS, THEIRS):
        options = classes["Options"]
        obj = options(1, [2], tag="t")
        assert dataclasses.is_dataclass(obj) and dataclasses.is_dataclass(options)
        assert dataclasses.replace(obj, a=5).a == 5 and dataclasses.replace(obj).b == [2]
        assert dataclasses.asdict(obj)["tag"] == "t"
        assert options(1).b is not options(1).b  # a fresh list each time
        assert options.__match_args__ == ("a", "b", "hidden", "loose", "unhashed")
        assert options.hidden == "h" and not hasattr(options, "b")
        assert repr(options.__dataclass_params__) == repr(THEIRS["Options"].__dataclass_params__)
        assert classes["Child"].__match_args__ == ("value", "name")
        assert classes["Own"](5).__repr__.__qualname__.endswith("Own.__repr__")


@frozen_dataclass
class Pickled:
    """A class at module level (pickle finds it by name)."""

    a: int
    b: list[int] = field(default_factory=list)
    pos: int = field(default=0, compare=False, kw_only=True)


def test_pickled_and_read_back() -> None:
    obj = Pickled(1, [2], pos=3)
    again = pickle.loads(pickle.dumps(obj))
    assert again == obj and again.pos == 3 and vars(again) == vars(obj)


def test_recursive_repr_and_the_standard_subclass() -> None:
    for classes in (OURS, THEIRS):
        obj = classes["Recursive"]()
        obj.items.append(obj)
        assert repr(obj).endswith("Recursive(items=[...])")

    @STANDARD
    class Later(OURS["Plain"]):
        """A standard frozen dataclass on top of ours."""

        d: int = 4

    assert repr(Later(1)).endswith("Later(a=1, b='x', c=(), d=4)") and Later(1) == Later(1)


def test_what_it_leaves_to_the_standard_decorator() -> None:
    @frozen_dataclass
    class NoDoc:
        a: int

    assert NoDoc.__doc__ == "NoDoc(a: 'int')"  # written by the standard decorator
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @frozen_dataclass
        class Order:
            """Out of order."""

            a: int = 1
            b: int  # type: ignore[misc]

    with pytest.raises(ValueError, match="mutable default"):

        @frozen_dataclass
        class Mutable:
            """A list as a default."""

            a: list[int] = []  # type: ignore[misc]  # noqa: RUF012
