"""One door of randomness: every public entry point that draws takes ``seed=``, ``entropy=``
and ``source=`` with the same types, meanings and errors
(croupier.randomness.resolve_source).

Each entry point is called the same ways: a seed as text and as the same whole
number give the same result; a seeded source given as ``source=`` gives what its
seed gives; bad types and two of the three at once fail with the same one-line
errors, which never quote a seed or an entropy spec; and user entropy is taken
(too little of it is refused, never stretched).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import croupier
import croupier.poker
import croupier.scale
import croupier.simulate
from croupier.errors import CroupierError, EntropyExhaustedError, SeedError
from croupier.randomness import SeededSource, resolve_source
from croupier.randomness.purposes import Purpose

SECRET = "my secret 1234"
FLIPS = "coins:HHTHTTTHHT"  # an entropy spec: never quoted either


def _takes_seed(obj: object) -> bool:
    try:
        return "seed" in inspect.signature(obj).parameters  # type: ignore[arg-type]
    except (TypeError, ValueError):  # (classes of the standard library, constants)
        return False


def _dask_bag() -> Any:
    import dask.bag as db

    return db.from_sequence(range(40), npartitions=2)


def _result(value: Any) -> Any:
    """What an entry point gave, made comparable."""
    if isinstance(value, croupier.Deck):
        value.shuffle()
        return value.cards
    if hasattr(value, "compute"):
        return value.compute()
    if hasattr(value, "__next__"):
        return list(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


# name -> (call with randomness keyword arguments, the purpose a seed= is derived with)
ENTRY_POINTS: dict[str, tuple[Callable[..., Any], Purpose]] = {
    "deal": (lambda **r: croupier.deal(**r), Purpose.DEAL),
    "deals": (lambda **r: croupier.deals("bridge", 3, **r), Purpose.DEAL),
    "deal_array": (lambda **r: croupier.deal_array("bridge", 5, **r), Purpose.BULK),
    "deal_where": (
        lambda **r: croupier.simulate.deal_where("hcp(north) >= 15", 2, strategy="rejection", **r),
        Purpose.BULK,
    ),
    "shuffle": (lambda **r: croupier.shuffle(list(range(20)), **r), Purpose.SHUFFLE),
    "shuffle array": (lambda **r: croupier.shuffle(np.arange(5000), **r), Purpose.SHUFFLE),
    "shuffle_in_place": (
        lambda **r: (items := list(range(20)), croupier.shuffle_in_place(items, **r), items)[2],
        Purpose.SHUFFLE,
    ),
    "permutation": (lambda **r: croupier.permutation(30, **r), Purpose.SHUFFLE),
    "sample": (lambda **r: croupier.sample(range(100), 5, **r), Purpose.SHUFFLE),
    "Deck": (lambda **r: croupier.Deck("euchre", **r), Purpose.SHUFFLE),
    "Deck.shuffle": (
        lambda **r: (deck := croupier.Deck("euchre"), deck.shuffle(**r), deck.cards)[2],
        Purpose.SHUFFLE,
    ),
    "poker.equity": (
        lambda **r: croupier.poker.equity(["AhKh", "QQ"], trials=2000, **r).hands,
        Purpose.EQUITY_MC,
    ),
    "scale.shuffle": (lambda **r: croupier.scale.shuffle(_dask_bag(), **r), Purpose.SHUFFLE_FILE),
}


NAMES = sorted(ENTRY_POINTS)


def _call(name: str, **randomness: Any) -> Any:
    return _result(ENTRY_POINTS[name][0](**randomness))


def test_every_entry_point_is_walked() -> None:
    """The list above holds every public function and class of the facade that takes
    ``seed=`` (a new one must be added here, and so pass through the door)."""
    takes_seed = {
        name
        for name in croupier.__all__
        if callable(obj := getattr(croupier, name))
        and _takes_seed(obj)
        and name != "source"  # (the door's own spelling at the top)
    }
    walked = {name.split(" ")[0].split(".")[0] for name in ENTRY_POINTS}
    assert takes_seed <= walked, takes_seed - walked
    for name, (_, _) in ENTRY_POINTS.items():
        target = {
            "poker.equity": croupier.poker.equity,
            "scale.shuffle": croupier.scale.shuffle,
            "deal_where": croupier.simulate.deal_where,
            "Deck.shuffle": croupier.Deck.shuffle,
        }.get(name, getattr(croupier, name.split(" ")[0], None))
        assert target is not None
        params = inspect.signature(target).parameters
        assert {"seed", "entropy", "source"} <= set(params), name


@pytest.mark.parametrize("name", NAMES)
def test_a_seed_means_the_same_everywhere(name: str) -> None:
    by_text = _call(name, seed="1234")
    assert _call(name, seed=1234) == by_text  # a whole number is its decimal text
    assert _call(name, seed=b"1234") == by_text  # bytes are the same bytes
    assert _call(name, seed="1235") != by_text
    purpose = ENTRY_POINTS[name][1]
    assert _call(name, source=SeededSource("1234", purpose)) == by_text


@pytest.mark.parametrize("name", NAMES)
def test_bad_randomness_fails_the_same_everywhere(name: str) -> None:
    cases: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"seed": 4.5}, SeedError, "seed= must be text, bytes or a whole number, not float"),
        ({"seed": True}, SeedError, "seed= must be text, bytes or a whole number, not bool"),
        ({"entropy": 6}, SeedError, "entropy= is text such as"),
        ({"entropy": "dice:9"}, SeedError, "bad d6 roll"),
        ({"source": "os"}, CroupierError, "source= is a random source (croupier.source(...)), not str"),  # noqa: E501
        ({"seed": SECRET, "source": croupier.source()}, CroupierError,
         "give either source= or seed=/entropy=, not both (seed=)"),
        ({"entropy": FLIPS, "source": croupier.source()}, CroupierError,
         "give either source= or seed=/entropy=, not both (entropy=)"),
        ({"seed": SECRET, "entropy": FLIPS}, CroupierError,
         "give either a seed or an entropy spec, not both"),
    ]  # fmt: skip
    for randomness, kind, message in cases:
        with pytest.raises(kind) as caught:
            _call(name, **randomness)
        text = str(caught.value)
        assert message in text, (name, randomness, text)
        assert "\n" not in text and SECRET not in text and FLIPS not in text
        assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("name", NAMES)
def test_user_entropy_is_used_and_never_stretched(name: str) -> None:
    plenty = "hex:" + "5a3c9e" * 4000  # 96,000 bits: enough for every call above
    first = _call(name, entropy=plenty)
    assert _call(name, entropy=plenty) == first  # the same entropy, the same result
    assert _call(name, source=resolve_source(entropy=plenty)) == first
    with pytest.raises(EntropyExhaustedError, match=r"entropy exhausted: .* need at least"):
        _call(name, entropy="coins:HT")
