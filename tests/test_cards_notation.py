"""Cards: parsing every notation, formatting every style, round trips, errors."""

from __future__ import annotations

import dataclasses
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import (
    CARD_STYLES,
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from croupier.errors import CardNotationError, CroupierError

STANDARD = [Card(r, s) for s in Suit for r in Rank.standard()]

standard_cards = st.builds(
    Card, st.sampled_from(Rank.standard()), st.sampled_from(list(Suit)), st.integers(0, 3)
)
jokers = st.builds(Card.joker, st.integers(0, 5))
any_card = st.one_of(standard_cards, jokers)
styles = st.sampled_from(CARD_STYLES)


# -- exhaustive and property round trips ----------------------------------------------


@pytest.mark.parametrize("style", CARD_STYLES)
def test_every_standard_card_and_joker_round_trips_in_every_style(style: str) -> None:
    cards = STANDARD + [Card.joker(k) for k in range(5)]
    cards += [Card(c.rank, c.suit, 1) for c in STANDARD]
    for card in cards:
        text = format_card(card, style)  # type: ignore[arg-type]
        assert parse_card(text) == card, (card, text)
        assert Card.parse(text) == card


@settings(max_examples=300, deadline=None)
@given(card=any_card, style=styles)
def test_round_trip_property(card: Card, style: str) -> None:
    assert parse_card(format_card(card, style)) == card  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(any_card, max_size=12),
    style=styles,
    sep=st.sampled_from([" ", ",", ", ", ";", " | ", "\n", "\t"]),
)
def test_list_round_trip_with_separators(cards: list[Card], style: str, sep: str) -> None:
    text = format_cards(cards, style, sep=sep)  # type: ignore[arg-type]
    assert parse_cards(text) == cards


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(
        st.one_of(st.builds(Card, st.sampled_from(Rank.standard()), st.sampled_from(list(Suit)))),
        max_size=12,
    ),
    style=st.sampled_from(["short", "symbol", "glyph"]),
)
def test_glued_lists_round_trip(cards: list[Card], style: str) -> None:
    # "AsKh": no separator at all (copy suffixes excluded: "AS#2" + "2H" would read as #22)
    assert parse_cards(format_cards(cards, style, sep="")) == cards  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(card=any_card, style=st.sampled_from(["short", "symbol", "long"]), data=st.data())
def test_parsing_is_case_insensitive(card: Card, style: str, data: st.DataObject) -> None:
    text = format_card(card, style)  # type: ignore[arg-type]
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    mixed = "".join(ch.swapcase() if f else ch for ch, f in zip(text, flips, strict=True))
    assert parse_card(mixed) == card


# -- the notations of the issue, spelled out --------------------------------------------

AS = Card(Rank.ACE, Suit.SPADES)
TH = Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize(
    "text",
    ["AS", "As", "as", "aS", "A♠", "a♠", "♠A", "A♤", "A♠\ufe0f", "Ace of Spades", "ACE OF SPADES",
     "ace of spade", "1 of spades", "A of Spades", "a of spades", "🂡", " AS ", "AS,"],
)  # fmt: skip
def test_ace_of_spades_notations(text: str) -> None:
    assert parse_card(text) == AS


@pytest.mark.parametrize(
    "text",
    ["10h", "10H", "Th", "th", "T♥", "10♥", "♥10", "10♡", "Ten of Hearts", "10 of hearts",
     "T of Hearts", "🂺"],
)  # fmt: skip
def test_ten_of_hearts_notations(text: str) -> None:
    assert parse_card(text) == TH


@pytest.mark.parametrize("text", ["joker", "JOKER", "Joker", "JK", "jk", "🃏"])
def test_joker_notations(text: str) -> None:
    assert parse_card(text) == Card.joker()


def test_joker_glyphs_and_copies() -> None:
    assert parse_card("🂿") == Card.joker(1)  # red joker
    assert parse_card("🃟") == Card.joker(2)  # white joker
    assert parse_card("JK#2") == parse_card("Joker #2") == Card.joker(1)
    assert parse_card("AS#3") == Card(Rank.ACE, Suit.SPADES, 2)


@pytest.mark.parametrize(
    "text", ["AS KH 10d", "As,Kh,10d", "AsKh10d", "AS; KH;10D", "A♠K♥10♦", "as | kh | td",
             "Ace of Spades, King of Hearts, Ten of Diamonds", "🂡🂾🃊"],
)  # fmt: skip
def test_list_notations(text: str) -> None:
    assert [c.code for c in parse_cards(text)] == ["AS", "KH", "TD"]


def test_empty_text_is_an_empty_list() -> None:
    assert parse_cards("") == []
    assert parse_cards(" , ; ") == []


# -- formatting --------------------------------------------------------------------------


def test_styles_of_one_card() -> None:
    c = Card(Rank.QUEEN, Suit.DIAMONDS)
    assert (c.code, c.symbol, c.long_name, c.glyph) == ("QD", "Q♦", "Queen of Diamonds", "🃍")
    assert f"{c:long}" == "Queen of Diamonds" and f"{c}" == "QD" and str(c) == "QD"
    assert repr(c) == "Card.parse('QD')"


def test_long_style_is_rank_name_of_suit_name() -> None:
    # The long style is ranks[rank] + " of " + suits[suit] with these tables.
    long_ranks = ["", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"]
    long_suits = ["Clubs", "Diamonds", "Hearts", "Spades"]
    for s in range(4):
        for r in range(1, 14):
            assert Card(r, s).long_name == f"{long_ranks[r]} of {long_suits[s]}"  # type: ignore[arg-type]


def test_glyphs_are_the_unicode_playing_cards() -> None:
    # Independent check through the Unicode character database.
    for card in STANDARD:
        name = unicodedata.name(card.glyph)
        rank = {1: "ACE", 11: "JACK", 12: "QUEEN", 13: "KING"}.get(card.rank)
        rank = rank or ["", "", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
                        "TEN"][card.rank]  # fmt: skip
        assert card.suit is not None
        assert name == f"PLAYING CARD {rank} OF {card.suit.long_name.upper()}"
    assert unicodedata.name(Card.joker(0).glyph) == "PLAYING CARD BLACK JOKER"
    assert unicodedata.name(Card.joker(1).glyph) == "PLAYING CARD RED JOKER"
    assert unicodedata.name(Card.joker(2).glyph) == "PLAYING CARD WHITE JOKER"


def test_unknown_style_is_an_error() -> None:
    with pytest.raises(CardNotationError, match="unknown card style 'fancy'"):
        format_card(AS, "fancy")  # type: ignore[arg-type]
    with pytest.raises(CardNotationError, match="unknown card style"):
        format_card(Card.joker(), "fancy")  # type: ignore[arg-type]
    with pytest.raises(CardNotationError):
        format(AS, "fancy")


def test_format_cards_rejects_non_cards() -> None:
    with pytest.raises(CardNotationError, match="parse text first"):
        format_cards("AS KH")  # type: ignore[arg-type]
    with pytest.raises(CardNotationError, match="expected cards"):
        format_cards([AS, 3])  # type: ignore[list-item]


# -- the Card value ------------------------------------------------------------------------


def test_card_is_immutable_hashable_and_small() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        AS.rank = Rank.KING  # type: ignore[misc]
    assert len({*STANDARD, *STANDARD}) == 52
    assert Card(1, 3) == AS and hash(Card(1, 3)) == hash(AS)  # type: ignore[arg-type]
    assert not hasattr(AS, "__dict__")  # slots
    assert Card(Rank.ACE, Suit.SPADES, 1) != AS


def test_index_is_a_bijection_onto_the_fresh_deck_order() -> None:
    assert [c.index for c in STANDARD] == list(range(52))
    for i in range(60):
        assert Card.from_index(i).index == i
    assert Card.from_index(52) == Card.joker()
    with pytest.raises(CardNotationError, match="-1"):
        Card.from_index(-1)


def test_comparison_operators_suit_then_rank_ace_low() -> None:
    # suit first, then rank (ace low); jokers after all
    for i, a in enumerate(STANDARD):
        for j, b in enumerate(STANDARD):
            assert (a < b) == (i < j) and (a > b) == (i > j) and (a <= b) == (i <= j)
    assert all(c < Card.joker() for c in STANDARD)
    assert sorted(reversed(STANDARD)) == STANDARD


@pytest.mark.parametrize(
    "args",
    [(Rank.JOKER, Suit.SPADES), (Rank.ACE, None), (0, Suit.SPADES), (Rank.ACE, 7), ("A", 0),
     (Rank.ACE, Suit.SPADES, -1), (Rank.ACE, Suit.SPADES, True)],
)  # fmt: skip
def test_bad_card_construction_is_a_croupier_error(args: tuple[object, ...]) -> None:
    with pytest.raises(CroupierError):
        Card(*args)  # type: ignore[arg-type]


def test_red_and_joker_flags() -> None:
    assert [c.is_red for c in parse_cards("AC AD AH AS JK")] == [False, True, True, False, False]
    assert Card.joker().is_joker and not AS.is_joker


# -- errors ---------------------------------------------------------------------------------


def test_bad_token_error_names_token_position_column_and_valid_forms() -> None:
    with pytest.raises(CardNotationError) as info:
        parse_cards("AS XZ")
    msg = str(info.value)
    assert "'XZ'" in msg and "position 2" in msg and "column 4" in msg and "'AS'" in msg
    assert "\n" not in msg


def test_glued_bad_token_shows_the_word() -> None:
    with pytest.raises(CardNotationError, match=r"bad card 'Xz' \(in 'AsXz'\) at position 2"):
        parse_cards("AsXz")
    with pytest.raises(CardNotationError, match=r"'e' \(in 'Ace'\)"):
        parse_cards("KH Ace")


def test_letter_ranks_in_long_form() -> None:
    assert [c.code for c in parse_cards("K of Hearts, q of clubs; J of Diamonds")] == [
        "KH", "QC", "JD"]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["1S", "11H", "AX", "Knight of Cups", "🂬", "AS#0", "ZZ", "AS#1000000000", "AS#" + "9" * 5000,
     "AS#٣", "C of Spades"],
)  # fmt: skip
def test_bad_cards_are_rejected(text: str) -> None:
    with pytest.raises(CardNotationError):
        parse_card(text)


def test_copy_numbers_are_bounded() -> None:
    assert parse_card("AS#999999999").copy == 999_999_998
    with pytest.raises(CardNotationError, match=r"copies are numbered #1 to #999999999"):
        parse_card("AS#1000000000")


def test_parse_card_wants_exactly_one() -> None:
    with pytest.raises(CardNotationError, match="found 2"):
        parse_card("AS KH")
    with pytest.raises(CardNotationError, match="found 0"):
        parse_card("")
    with pytest.raises(CardNotationError):
        parse_cards(42)  # type: ignore[arg-type]


def test_suit_and_rank_parsers() -> None:
    assert [Suit.parse(t) for t in ("c", "♦", "Hearts", "spade", "♠\ufe0f")] == [
        Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.SPADES]  # fmt: skip
    assert [Rank.parse(t) for t in ("a", "1", "10", "T", "jack", "Seven")] == [
        Rank.ACE, Rank.ACE, Rank.TEN, Rank.TEN, Rank.JACK, Rank.SEVEN]  # fmt: skip
    with pytest.raises(CardNotationError, match="'x'"):
        Suit.parse("x")
    with pytest.raises(CardNotationError, match="'joker'"):
        Rank.parse("joker")
