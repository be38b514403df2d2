"""The top-level API (``import croupier``): small, documented, fast to import, and
reproducible exactly as the command line and the library paths below it."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import croupier
from croupier.cards import parse_cards
from croupier.dealing.deal import deal_from_number, deal_many
from croupier.dealing.layout import Layout, make_layout
from croupier.decks import make_deck
from croupier.errors import CroupierError, LayoutError, RangeError, RankingError
from croupier.randomness import EntropySource, OsRandomSource, SeededSource, UniformSampler
from croupier.ranking.schemes import scheme_names
from croupier.shuffling.registry import get_shuffle_method
from tests.conftest import ROOT, VECTORS, CliRunner

HEAVY = ("sympy", "scipy", "matplotlib")


def _python(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# --------------------------------------------------------------------- the names
def test_about_twenty_public_names_all_resolve() -> None:
    assert 15 <= len(croupier.__all__) <= 30
    assert len(set(croupier.__all__)) == len(croupier.__all__)
    for name in croupier.__all__:
        assert getattr(croupier, name) is not None, name
    for name in ("deal", "deals", "shuffle", "Deck", "Deal", "Card", "Permutation", "rank"):
        assert name in croupier.__all__
    for name in ("unrank", "source", "CroupierError", "parse_card", "parse_cards", "Layout"):
        assert name in croupier.__all__


def test_every_public_name_has_a_doctest() -> None:
    """Each name has a doctest of its own, or the package docstring's examples use it."""
    package_examples = [
        line
        for line in (croupier.__doc__ or "").splitlines()
        if line.lstrip().startswith((">>> ", "... "))
    ]
    assert package_examples
    for name in croupier.__all__:
        obj = getattr(croupier, name)
        own = inspect.getdoc(obj) if (inspect.isclass(obj) or inspect.isfunction(obj)) else None
        if own is not None and ">>>" in own:
            continue
        assert any(name in line for line in package_examples), f"{name} has no doctest"


def test_star_import_and_dir_list_the_lazy_classes() -> None:
    namespace: dict[str, object] = {}
    exec("from croupier import *", namespace)
    assert set(croupier.__all__) <= set(namespace)
    assert {"Deck", "Deal", "Layout", "Permutation"} <= set(dir(croupier))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        croupier.nope  # type: ignore[attr-defined]  # noqa: B018


def test_public_classes_are_the_library_classes() -> None:
    from croupier.dealing.deal import Deal
    from croupier.dealing.layout import Layout
    from croupier.deck import Deck
    from croupier.perm import Permutation

    assert (croupier.Deal, croupier.Layout, croupier.Deck) == (Deal, Layout, Deck)
    assert croupier.Permutation is Permutation


def test_existing_top_level_names_still_work() -> None:
    from croupier import CARD_STYLES, CardStyle, format_card, format_cards, parse_card  # noqa: F401

    assert format_card(parse_card("As"), "long") == "Ace of Spades"


# ----------------------------------------------------------------- import speed
def test_import_croupier_loads_no_heavy_module() -> None:
    code = (
        "import sys, croupier\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'sympy', 'scipy', 'matplotlib') or m.startswith('croupier.')))\n"
        "croupier.deal(); croupier.shuffle(range(5)); croupier.Deck().shuffle()\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))\n"
    )
    first, after = _python(code).splitlines()
    assert first == "['croupier.errors']"  # (the card names too are loaded on first use)
    assert after == "[]"


def test_print_deal_shows_a_bridge_deal() -> None:
    lines = _python("import croupier; print(croupier.deal())").splitlines()
    assert lines[0].startswith("bridge deal ")
    seats = [line.split()[0] for line in lines[1:]]
    assert seats == ["N", "E", "S", "W"]
    hands = [parse_cards(" ".join(line.split()[1:])) for line in lines[1:]]
    assert [len(h) for h in hands] == [13, 13, 13, 13]
    assert len({c for h in hands for c in h}) == 52


def test_deal_str_lists_every_set_highest_first_and_every_stack_top_first() -> None:
    d = croupier.deal("holdem", players=3, seed="str")
    lines = str(d).splitlines()
    assert lines[0] == f"holdem deal {d.number} (method optimal)"
    assert len(lines) == 1 + len(d.layout.piles)
    for line, pile, cards in zip(lines[1:], d.layout.piles, d.piles, strict=True):
        name, *codes = line.split()
        assert name == pile.name
        if pile.ordered:  # the stock: its cards as dealt, top first
            assert codes[-2:] == ["(top", "first)"]
            assert parse_cards(" ".join(codes[:-2])) == list(cards)
            continue
        shown = parse_cards(" ".join(codes))
        assert sorted(shown) == sorted(cards)
        ace_high = [14 if c.rank == 1 else int(c.rank) for c in shown]
        keys = [(int(c.suit or 0), r) for c, r in zip(shown, ace_high, strict=True)]
        assert keys == sorted(keys, reverse=True)
    assert [p.ordered for p in d.layout.piles] == [False] * 6 + [True]


# -------------------------------------------------- reproducible as the CLI is
def _records(out: str) -> list[str]:
    """The deals of a text output, without the seeded-run notice on its first line."""
    return [line for line in out.splitlines() if not line.startswith(("seeded:", "% seeded:"))]


@pytest.mark.parametrize("seed", ["x", "club night 12", "hex:00ff"])
def test_seeded_deal_is_what_the_cli_deals(cli: CliRunner, seed: str) -> None:
    result = cli(["deal", "--engine", "deal", "--seed", seed, "--format", "pbn-deal"])
    assert result.code == 0, result.err
    d = croupier.deal(seed=seed)
    assert _records(result.out) == [d.pbn]
    assert d.algorithm == "croupier-deal/2"


def test_seeded_deal_is_the_library_path() -> None:
    """``deal(seed=s)`` is the first deal of the stream (s, purpose "deal", index 0)."""
    for game in ("bridge", "skat", "holdem"):
        expected = next(deal_many(make_layout(game), 1, source=SeededSource("s", "deal", 0)))
        assert croupier.deal(game, seed="s") == expected
        assert croupier.deal(game, source=croupier.source("s", purpose="deal")) == expected


def test_seeded_deals_are_what_the_cli_deals(cli: CliRunner) -> None:
    args = ["deal", "euchre", "--engine", "deal", "--seed", "run", "--count", "4"]
    result = cli([*args, "--format", "oneline"])
    assert result.code == 0, result.err
    run = list(croupier.deals("euchre", 4, seed="run"))
    assert _records(result.out) == [d.oneline for d in run]


def test_deals_one_by_one_from_one_stream() -> None:
    """A run is dealt one deal at a time: a longer run starts with the shorter one."""
    long_run = list(croupier.deals("bridge", 6, seed="prefix"))
    for k in range(2, 6):
        assert list(croupier.deals("bridge", k, seed="prefix")) == long_run[:k]
    src = SeededSource("prefix", "deal", 0)
    assert long_run == list(deal_many(make_layout("bridge"), 6, source=src))
    assert list(croupier.deals("bridge", 0, seed="prefix")) == []


def test_deals_is_lazy_but_checks_its_arguments_at_once() -> None:
    it = croupier.deals("bridge", 10**9)
    assert next(it).layout.game == "bridge"
    with pytest.raises(RangeError, match="count="):
        croupier.deals("bridge", True)  # type: ignore[arg-type]
    with pytest.raises(LayoutError):
        croupier.deals("tarot", 3)


def test_deal_accepts_a_layout_and_refuses_to_reshape_it() -> None:
    lay = croupier.layout("go-fish", players=3)
    assert croupier.deal(lay, seed="l") == croupier.deal("go-fish", players=3, seed="l")
    with pytest.raises(CroupierError, match="players=") as info:
        croupier.deal(lay, players=4)
    assert str(info.value).endswith("is already a Layout (build another with croupier.layout)")


def test_deal_methods_and_entropy() -> None:
    d = croupier.deal("skat", method="round-robin", seed="m")
    assert d.method == "round-robin"
    expected = next(
        deal_many(make_layout("skat"), 1, method="round-robin", source=SeededSource("m", "deal"))
    )
    assert d == expected
    rolls = "dice:" + ",".join(str(1 + i % 6) for i in range(60))
    e = croupier.deal(entropy=rolls)
    assert e.source == "entropy"
    assert e == next(deal_many(make_layout("bridge"), 1, source=EntropySource.parse(rolls)))


def test_seed_source_and_entropy_exclude_each_other() -> None:
    with pytest.raises(CroupierError, match="source="):
        croupier.deal(seed="a", source=OsRandomSource())
    with pytest.raises(CroupierError, match="source="):
        croupier.shuffle([1, 2], entropy="coins:HT", source=OsRandomSource())
    with pytest.raises(CroupierError, match="not both"):
        croupier.source("a", entropy="coins:HT")


def test_whole_number_seeds_mean_their_decimal_text() -> None:
    assert croupier.deal(seed=42) == croupier.deal(seed="42")
    assert croupier.shuffle(range(9), seed=7) == croupier.shuffle(range(9), seed="7")
    with pytest.raises(CroupierError, match="seed="):
        croupier.source(True)  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="seed="):
        croupier.source(1.5)  # type: ignore[arg-type]


def test_source_kinds() -> None:
    assert isinstance(croupier.source(), OsRandomSource)
    src = croupier.source("k", purpose="p", index=3)
    assert isinstance(src, SeededSource)
    assert (src.purpose, src.index) == ("p", 3)
    assert src.bits(64) == SeededSource("k", "p", 3).bits(64)
    assert isinstance(croupier.source(entropy="hex:ff"), EntropySource)


def test_unseeded_one_off_calls_keep_one_os_source_per_thread() -> None:
    # deal() and sample() without a seed read this thread's kept OS source (no source
    # built per call); each thread has its own, so the bits a deal reports are its own
    # even while other threads deal.
    import threading

    kept = croupier._kept_os_source()
    assert isinstance(kept, OsRandomSource)
    before = kept.bits_used
    d = croupier.deal()
    assert croupier._kept_os_source() is kept
    assert kept.bits_used - before == d.bits_used > 0
    croupier.sample(range(100), 3)
    assert kept.bits_used > before + d.bits_used  # (the same source)
    others: list[object] = []
    reported: list[bool] = []

    def other_thread() -> None:
        mine = croupier._kept_os_source()
        others.append(mine)
        start = mine.bits_used
        for _ in range(200):
            deal = croupier.deal()
            reported.append(mine.bits_used - start == deal.bits_used)
            start = mine.bits_used

    threads = [threading.Thread(target=other_thread) for _ in range(2)]
    for t in threads:
        t.start()
    for _ in range(200):
        croupier.deal()
    for t in threads:
        t.join()
    assert len({id(o) for o in others}) == 2 and kept not in others
    assert all(reported) and len(reported) == 400


# ------------------------------------------------------------------- shuffle
@pytest.mark.parametrize("items", [["a", "b", "c"], ["alice", "bob", "carol", "dave", "erin"]])
def test_seeded_shuffle_is_what_the_cli_shuffles(cli: CliRunner, items: list[str]) -> None:
    result = cli(["shuffle", *items, "--seed", "round 1", "--json"])
    assert result.code == 0, result.err
    assert croupier.shuffle(items, seed="round 1") == json.loads(result.out)["result"]["items"]


def test_long_shuffle_follows_the_cli_rule(cli: CliRunner) -> None:
    n = 2100
    result = cli(["shuffle", "--cards", str(n), "--seed", "long", "--json"])
    assert result.code == 0, result.err
    shown = json.loads(result.out)["result"]
    assert croupier.shuffle(range(1, n + 1), seed="long") == shown["items"]
    method = get_shuffle_method(shown["method"])
    expected = method(list(range(1, n + 1)), UniformSampler(SeededSource("long", "shuffle")))
    assert expected == shown["items"]


@pytest.mark.parametrize("method", ["lehmer", "fisher-yates", "merge-shuffle", "riffle"])
def test_shuffle_with_a_named_method_is_the_registry_method(method: str) -> None:
    items = list(range(20))
    expected = get_shuffle_method(method)(items, UniformSampler(SeededSource("n", "shuffle")))
    assert croupier.shuffle(items, method=method, seed="n") == expected


@given(st.lists(st.integers(), max_size=30))
def test_shuffle_returns_a_new_permuted_list_and_leaves_the_input(items: list[int]) -> None:
    before = list(items)
    out = croupier.shuffle(items, seed="h")
    assert items == before
    assert out is not items
    assert sorted(out) == sorted(items)
    assert croupier.shuffle(tuple(items), seed="h") == out
    assert croupier.shuffle(iter(items), seed="h") == out


@given(st.lists(st.integers(), max_size=60), st.integers(0, 2**64))
def test_an_unseeded_list_shuffle_is_the_lehmer_decode_of_one_os_draw(
    items: list[int], draw: int
) -> None:
    # A list with no seed: one draw below n! from the OS, decoded (the list skips the array
    # and iterable checks); the input is left as it was, and a tuple gives the same order.
    import math
    from unittest import mock

    from croupier.shuffling.lehmer import decode_rank

    rank = draw % math.factorial(len(items))
    before = list(items)
    with mock.patch.object(croupier, "_os_below_factorial", return_value=rank) as os_draw:
        out = croupier.shuffle(items)
        assert croupier.shuffle(tuple(items)) == out
    assert os_draw.call_count == 2
    assert items == before and out is not items
    assert out == decode_rank(list(items), rank)


# ------------------------------------------------------------- rank / unrank
@given(st.data())
def test_rank_inverts_unrank_in_every_scheme(data: st.DataObject) -> None:
    scheme = data.draw(st.sampled_from(scheme_names()))
    lay = make_layout("bridge")
    base = 1 if scheme.endswith("-1") else 0
    number = data.draw(st.integers(base, base + lay.count - 1))
    d = croupier.unrank("bridge", number, scheme)
    assert croupier.rank(d, scheme) == number
    assert d == deal_from_number(lay, number, scheme)


def test_rank_and_unrank_for_other_games() -> None:
    d = croupier.deal("cribbage", players=3, seed="r")
    assert croupier.unrank("cribbage", croupier.rank(d), players=3) == d
    assert croupier.unrank(None, 5, hands=[2, 1], deck="stripped:A").number == 5
    with pytest.raises(RankingError, match="bridge deals only"):
        croupier.rank(d, "pavlicek")
    with pytest.raises(RankingError, match="out of range"):
        croupier.unrank("bridge", make_layout("bridge").count)


# ------------------------------------------------------------- golden vectors
def _vector(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTORS / name).read_text(encoding="utf-8"))
    return data


def golden_layout(case: dict[str, Any]) -> Layout:
    """The layout of a golden case: its game, players and hands; every pile a set when the
    case says ``"sets": true`` (the deals of ``croupier-deal/2`` and ``croupier-bulk/1``)."""
    lay = make_layout(case["game"], players=case["players"], hands=case.get("hands"))
    return lay.without_stacks() if case.get("sets") else lay


@pytest.mark.parametrize("case", _vector("deal_golden.json")["cases"], ids=lambda c: c["seed"])
def test_deals_reproduce_the_golden_deals(case: dict[str, Any]) -> None:
    assert case["purpose"] == "deal"
    lay = golden_layout(case)
    kwargs: dict[str, Any] = {"method": case["method"]}
    if case["count"] == 1:
        got = [croupier.deal(lay, seed=case["seed"], **kwargs)]
    else:
        got = list(croupier.deals(lay, case["count"], seed=case["seed"], **kwargs))
    assert all(d.algorithm == "croupier-deal/2" for d in got)
    assert [str(d.number) for d in got] == [d["number"] for d in case["deals"]]
    assert [d.bits_used for d in got] == [d["bits_used"] for d in case["deals"]]


@pytest.mark.parametrize("method", ["optimal", "block", "interval", "arithmetic", "fraction"])
@pytest.mark.parametrize("game", ["bridge", "skat"])
def test_the_first_deals_of_a_run_never_depend_on_the_count(game: str, method: str) -> None:
    # croupier-deal/2: the margin starts at the second deal by position, never by count
    runs = [
        [d.number for d in croupier.deals(game, k, seed="prefix", method=method)] for k in (1, 2, 5)
    ]
    assert runs[2][:2] == runs[1] and runs[1][:1] == runs[0]
    assert runs[0] == [croupier.deal(game, seed="prefix", method=method).number]


SHUFFLE_CASES = [
    c for c in _vector("seeded_v1.json")["shuffles"] if c["purpose"] == "shuffle" and not c["index"]
]


@pytest.mark.parametrize("case", SHUFFLE_CASES, ids=lambda c: f"{c['method']}-{c['n']}")
def test_shuffles_reproduce_the_golden_shuffles(case: dict[str, Any]) -> None:
    n, method, seed = case["n"], case["method"], case["seed"]
    assert croupier.shuffle(range(n), method=method, seed=seed) == case["result"]
    if n == 52:
        deck = croupier.Deck(seed=seed)
        deck.shuffle(method=method)
        fresh = make_deck("standard")
        assert list(deck) == [fresh[i] for i in case["result"]]
        assert deck.last_shuffle_bits == case["bits_used"]


def bulk_golden_layout(game: str) -> Layout:
    """The layout a key of ``bulk.json`` names (``hands=2,2,5`` for a custom one), every pile
    a set: the file pins ``croupier-bulk/1``."""
    if game.startswith("hands="):
        return make_layout(hands=game.removeprefix("hands="))
    return make_layout(game).without_stacks()


@pytest.mark.parametrize("key", [k for k in _vector("bulk.json") if k != "algorithm"])
def test_deal_array_reproduces_the_bulk_golden_vectors(key: str) -> None:
    rows = _vector("bulk.json")[key]
    game, seed, start = key.split("|")
    lay = bulk_golden_layout(game)
    got = croupier.deal_array(lay, len(rows), seed=seed, start=int(start))
    assert ["".join(map(str, r)) for r in got.piles.tolist()] == rows
    assert got[0].algorithm == "croupier-bulk/1"
    if seed.startswith("hex:"):  # bytes are the same seed as their hex: digits
        raw = bytes.fromhex(seed[4:])
        assert croupier.deal_array(lay, len(rows), seed=raw, start=int(start)) == got
    if not game.startswith("hands="):  # the game itself: the same piles, stacks or not
        assert np.array_equal(
            croupier.deal_array(game, len(rows), seed=seed, start=int(start)).piles, got.piles
        )


# -------------------------------------------------------- one API for every door
def test_dir_shows_only_the_public_names() -> None:
    names = dir(croupier)
    assert set(croupier.__all__) <= set(names)
    assert {n for n in names if not n.startswith("__")} == {
        n for n in croupier.__all__ if not n.startswith("__")
    }
    for hidden in ("Any", "TypeVar", "importlib", "os", "sys", "T", "overload", "annotations"):
        assert hidden not in names
    assert "__version__" in names and "__all__" in names


def test_the_game_comes_first_then_the_count() -> None:
    for door in (croupier.deals, croupier.deal_array):
        params = list(inspect.signature(door).parameters)
        assert params[:2] == ["game", "count"], door.__name__
    assert next(iter(inspect.signature(croupier.deal).parameters)) == "game"
    a = croupier.deal_array("bridge", 1000, seed="order")
    assert len(a) == 1000 and a == croupier.deal_array(count=1000, seed="order")
    assert a[:3] == croupier.deal_array(None, 3, seed="order")
    assert len(croupier.deal_array(seed="order")) == 1  # count defaults to 1, as deals'
    assert len(croupier.deal_array("bridge", 0)) == 0
    assert list(croupier.deals(seed="order")) == list(croupier.deals("bridge", 1, seed="order"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: croupier.deal_array(1000), "the game comes first: deal_array('bridge', 1000)"),
        (lambda: croupier.deal_array(1000, seed=3), "deal_array('bridge', 1000)"),
        (lambda: croupier.deal_array(1000, "euchre"), "deal_array('euchre', 1000)"),
        (lambda: croupier.deals(5), "the game comes first: deals('bridge', 5)"),
        (lambda: croupier.deal(5), "deals('bridge', 5)"),
    ],
)
def test_a_count_where_the_game_goes_says_the_order(call: Any, message: str) -> None:
    with pytest.raises(CroupierError) as info:
        call()
    assert message in str(info.value)


SEEDS_ALIKE = [(42, "42"), (b"\x00\xff", "hex:00ff"), ("club night", "club night")]


@pytest.mark.parametrize(("seed", "same"), SEEDS_ALIKE, ids=["int", "bytes", "str"])
def test_every_door_takes_text_whole_number_and_bytes_seeds(
    seed: str | int | bytes, same: str
) -> None:
    assert croupier.deal(seed=seed) == croupier.deal(seed=same)
    assert list(croupier.deals("skat", 3, seed=seed)) == list(croupier.deals("skat", 3, seed=same))
    assert croupier.deal_array("euchre", 50, seed=seed) == croupier.deal_array(
        "euchre", 50, seed=same
    )
    decks = [croupier.Deck(seed=seed), croupier.Deck(seed=same), croupier.Deck()]
    decks[0].shuffle()
    decks[1].shuffle()
    decks[2].shuffle(seed=seed)
    assert decks[0] == decks[1] == decks[2]
    assert croupier.shuffle(range(9), seed=seed) == croupier.shuffle(range(9), seed=same)
    assert croupier.source(seed, purpose="p").bits(64) == croupier.source(same, purpose="p").bits(
        64
    )


def test_seed_annotations_agree_across_the_doors() -> None:
    def seed_type(function: Any) -> object:
        return inspect.signature(function).parameters["seed"].annotation

    kinds = {
        seed_type(f)
        for f in (
            croupier.deal,
            croupier.deals,
            croupier.deal_array,
            croupier.shuffle,
            croupier.source,
            croupier.Deck,
            croupier.Deck.shuffle,
        )
    }
    assert kinds == {"Seed | None"}


def _bad_calls() -> dict[str, Any]:
    d = croupier.unrank("bridge", 7)
    return {
        "deal game int": lambda: croupier.deal(5),
        "deal game list": lambda: croupier.deal(["bridge"]),
        "deal players text": lambda: croupier.deal("holdem", players="3"),
        "deal players float": lambda: croupier.deal("holdem", players=2.0),
        "deal hands int": lambda: croupier.deal(hands=5),
        "deal hands text item": lambda: croupier.deal(hands=[2, "x"]),
        "deal hands float item": lambda: croupier.deal(hands=[2, 2.5]),
        "deal deck int": lambda: croupier.deal(deck=5),
        "deal deck of ints": lambda: croupier.deal(hands=[1], deck=[1, 2]),
        "deal seed float": lambda: croupier.deal(seed=3.5),
        "deal seed bytearray": lambda: croupier.deal(seed=bytearray(b"x")),
        "deal method int": lambda: croupier.deal(method=5),
        "deal entropy int": lambda: croupier.deal(entropy=5),
        "deal source int": lambda: croupier.deal(source=5),
        "deals count text": lambda: croupier.deals("bridge", "3"),
        "deals count float": lambda: croupier.deals("bridge", 2.0),
        "deals source text": lambda: croupier.deals("bridge", 2, source="os"),
        "deals method": lambda: croupier.deals("bridge", 2, method="nope"),
        "deal_array count text": lambda: croupier.deal_array("bridge", "3"),
        "deal_array count negative": lambda: croupier.deal_array("bridge", -1),
        "deal_array start text": lambda: croupier.deal_array("bridge", 1, start="x"),
        "deal_array start negative": lambda: croupier.deal_array("bridge", 1, start=-1),
        "deal_array seed list": lambda: croupier.deal_array("bridge", 1, seed=[1]),
        "deal_array game float": lambda: croupier.deal_array(2.5),
        "shuffle int": lambda: croupier.shuffle(5),
        "shuffle method int": lambda: croupier.shuffle([1, 2], method=5),
        "shuffle_in_place tuple": lambda: croupier.shuffle_in_place((1, 2)),
        "shuffle_in_place int": lambda: croupier.shuffle_in_place(5),
        "permutation text": lambda: croupier.permutation("x"),
        "sample k text": lambda: croupier.sample([1, 2], "x"),
        "sample int": lambda: croupier.sample(5, 1),
        "source purpose int": lambda: croupier.source("x", purpose=5),
        "source index text": lambda: croupier.source("x", index="x"),
        "rank text": lambda: croupier.rank("x"),
        "rank scheme int": lambda: croupier.rank(d, 5),
        "unrank number text": lambda: croupier.unrank("bridge", "x"),
        "layout int": lambda: croupier.layout(5),
        "layout players text": lambda: croupier.layout("holdem", players="x"),
        "Deck int": lambda: croupier.Deck(5),
        "Deck shuffle source": lambda: croupier.Deck().shuffle(source=5),
        "Permutation int": lambda: croupier.Permutation(5),
        "parse_card int": lambda: croupier.parse_card(5),
        "format_cards int": lambda: croupier.format_cards(5),
        "pbn of euchre": lambda: croupier.deal("euchre").pbn,
    }


@pytest.mark.parametrize("name", list(_bad_calls()))
def test_every_bad_input_is_a_one_line_croupier_error(name: str) -> None:
    call = _bad_calls()[name]
    with pytest.raises(CroupierError) as info:
        result = call()
        if inspect.isgenerator(result):  # an iterator is checked when it is made
            pytest.fail(f"{name}: accepted, lazily")
    message = str(info.value)
    assert message and "\n" not in message and len(message) < 400


# ------------------------------------------------------ Deal.pbn and Deal.oneline
@pytest.mark.parametrize("game", ["bridge", "whist", "euchre", "holdem", "skat", "pinochle"])
def test_oneline_and_pbn_are_the_writers_lines(game: str) -> None:
    from croupier.bulk import DealArray
    from croupier.bulk.writers.text import oneline_bytes, pbn_deal_bytes

    run = list(croupier.deals(game, 20, seed="lines"))
    array = DealArray.from_deals(run)
    lines = oneline_bytes(array).decode().splitlines()
    assert [d.oneline for d in run] == [line.rstrip(" ") for line in lines]
    if make_layout(game).bridge_like:
        assert [d.pbn for d in run] == pbn_deal_bytes(array).decode().splitlines()
        from croupier.formats.pbn_deal import parse_pbn_deal

        assert [list(map(sorted, parse_pbn_deal(d.pbn))) for d in run] == [
            [sorted(h) for h in d.hands] for d in run
        ]
    else:
        with pytest.raises(CroupierError, match=f"not a {game} deal; use .oneline"):
            run[0].pbn  # noqa: B018


def test_a_deal_array_in_a_notebook_shows_a_summary_and_the_first_deals() -> None:
    many = croupier.deal_array("bridge", 1000, seed="notebook")
    page = many._repr_html_()
    assert page.startswith('<table class="croupier-deals">')
    assert "1,000 deals of bridge: N 13, E 13, S 13, W 13" in page
    assert "(the first 5 shown)" in page
    assert page.count("<tr>") == 6  # the header and five deals
    for deal in many[:5]:
        assert all(f'data-card="{c.code}"' in page for c in deal.hands[0])
    few = croupier.deal_array("holdem", 2, players=3, seed="nb")._repr_html_()
    assert few.count("<tr>") == 3 and "the first" not in few and ">stock<" not in few
    assert "0 deals of skat" in croupier.deal_array("skat", 0)._repr_html_()
