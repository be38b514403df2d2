"""Hold'em range notation: every token form, round trips, errors that quote the token."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.poker import HandRange, RangeNotationError, format_range, parse_range
from croupier.poker.ranges import ALL_COMBOS, combo_text
from tests.poker_reference import number_text

RANKS = "23456789TJQKA"


def classes(text: str) -> set[str]:
    """The hand classes of a range written independently: 'AKs', 'AKo', 'QQ'."""
    out = set()
    for a, b in parse_range(text).combos:
        high, low = number_text(a), number_text(b)
        if high[0] == low[0]:
            out.add(high[0] * 2)
        else:
            out.add(high[0] + low[0] + ("s" if high[1] == low[1] else "o"))
    return out


@pytest.mark.parametrize(
    ("text", "count", "expected"),
    [
        ("QQ", 6, {"QQ"}),
        ("QQ+", 18, {"QQ", "KK", "AA"}),
        ("22-44", 18, {"22", "33", "44"}),
        ("44-22", 18, {"22", "33", "44"}),
        ("AKs", 4, {"AKs"}),
        ("KAs", 4, {"AKs"}),
        ("JK", 16, {"KJs", "KJo"}),
        ("AKo", 12, {"AKo"}),
        ("AK", 16, {"AKs", "AKo"}),
        ("a2s+", 48, {f"A{r}s" for r in RANKS[:-1]}),
        ("K9o+", 48, {"K9o", "KTo", "KJo", "KQo"}),
        ("AT+", 64, {f"A{r}{k}" for r in "TJQK" for k in "so"}),
        ("A5s-A2s", 16, {"A5s", "A4s", "A3s", "A2s"}),
        ("T9s-65s", 20, {"T9s", "98s", "87s", "76s", "65s"}),
        ("J9o-64o", 72, {"J9o", "T8o", "97o", "86o", "75o", "64o"}),
        ("AsKh", 1, {"AKo"}),
        ("10s 10h", 1, {"TT"}),
        ("QQ+, AKs, AsKs", 22, {"QQ", "KK", "AA", "AKs"}),
        ("random", 1326, None),
        ("ANY", 1326, None),
    ],
)
def test_tokens_mean_what_the_notation_says(
    text: str, count: int, expected: set[str] | None
) -> None:
    found = parse_range(text)
    assert len(found) == count == len(set(found.combos))
    if expected is not None:
        assert classes(text) == expected


def test_combos_are_counted_by_suits() -> None:
    # an independent count: pairs C(4,2), suited 4, offsuit 4*3
    combos = {tuple(sorted(c)) for c in itertools.combinations(range(52), 2)}
    assert len(ALL_COMBOS) == len(combos) == 1326
    assert {tuple(sorted(c)) for c in ALL_COMBOS} == combos
    assert [combo_text(c) for c in parse_range("AKs").combos] == ["AsKs", "AhKh", "AdKd", "AcKc"]


@given(st.sets(st.sampled_from(ALL_COMBOS), max_size=200))
def test_format_reads_back_to_the_same_range(combos: set[tuple[int, int]]) -> None:
    text = format_range(combos)
    if not combos:
        assert text == ""
        return
    assert set(parse_range(text).combos) == combos


@given(st.sets(st.sampled_from(["QQ+", "AKs", "T9s-65s", "A2s+", "K9o+", "22-55", "AJ"])))
def test_whole_classes_format_compactly(tokens: set[str]) -> None:
    if not tokens:
        return
    r = parse_range(", ".join(sorted(tokens)))
    text = str(r)
    assert parse_range(text) == r
    # whole classes never fall apart into single combos
    assert all(len(part) <= 7 for part in text.split(", ")), text


def test_format_uses_the_short_forms() -> None:
    assert format_range(parse_range("AA, KK, QQ").combos) == "QQ+"
    assert format_range(parse_range("JJ-99").combos) == "JJ-99"
    assert format_range(parse_range("AKs, AKo").combos) == "AK"
    assert format_range(parse_range("A2s+").combos) == "A2s+"
    assert format_range(parse_range("A5s-A2s").combos) == "A5s-A2s"
    assert format_range(parse_range("AsKh, AA").combos) == "AA, AsKh"
    assert format_range(ALL_COMBOS) == "random"
    r = HandRange.parse("QQ+")
    assert "KK" in r and "AKs" not in r and (0, 13) in r and "nonsense" not in r


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("QQ, AKx", "'AKx'"),
        ("QQ++", "'QQ++'"),
        ("QQs", "'QQs'"),
        ("AKs-QJo", "'AKs-QJo'"),
        ("AKs-QTs", "'AKs-QTs'"),
        ("22-AK", "'22-AK'"),
        ("As", "'As'"),
        ("AsKsQs", "'AsKsQs'"),
        ("Z", "'Z'"),
        ("1" * 5000, "5000 characters"),
    ],
)
def test_bad_tokens_are_quoted(text: str, bad: str) -> None:
    with pytest.raises(RangeNotationError) as info:
        parse_range(text)
    message = str(info.value)
    assert bad in message and "\n" not in message and len(message) < 300


def test_empty_and_repeated_cards() -> None:
    with pytest.raises(RangeNotationError, match="no tokens"):
        parse_range(",,")
    with pytest.raises(RangeNotationError, match="repeats a card"):
        parse_range("AsAs")
    assert len(parse_range("QQ,,KK")) == 12
