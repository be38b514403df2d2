"""The stateful Deck: every small case of its moves, conservation of cards, and fair shuffles."""

from __future__ import annotations

import json
import pickle
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import factorial

import pytest
from hypothesis import given
from hypothesis import strategies as st

import croupier
from croupier.cards import Card, Rank, Suit, parse_cards
from croupier.deck import Deck
from croupier.decks import deck_names, make_deck
from croupier.errors import CroupierError, DeckError, NotEnoughCardsError, RangeError, SeedError
from croupier.html import cards_html
from croupier.moves import cut
from croupier.orders import CardNotFoundError, order_names, sort_cards
from croupier.randomness import SeededSource, UniformSampler, exact_distribution_bits
from croupier.randomness.source import BitSource
from croupier.randomness.walk import ReplayBitSource
from croupier.shuffling import default_shuffle_method
from tests.conftest import CliRunner

SPADES = parse_cards("AS KS QS JS TS 9S 8S 7S")


def _small(n: int) -> list[Card]:
    """``n`` distinct cards (n <= 8)."""
    return SPADES[:n]


# -------------------------------------------------------------- construction
@pytest.mark.parametrize("name", deck_names())
def test_a_preset_deck_is_that_preset_from_the_top(name: str) -> None:
    deck = Deck(name)
    assert list(deck) == make_deck(name)
    assert len(deck) == len(make_deck(name))


def test_default_deck_and_other_ways_to_build_one() -> None:
    assert list(Deck()) == make_deck("standard")
    assert list(Deck("shoe:2")) == make_deck("shoe:2")
    assert list(Deck(SPADES)) == SPADES
    assert list(Deck(iter(SPADES))) == SPADES
    assert Deck.parse("AS KS, QS") == Deck(SPADES[:3])
    assert list(Deck([])) == []


def test_bad_construction_is_refused() -> None:
    with pytest.raises(DeckError, match="tarot") as info:
        Deck("tarot")
    assert "Deck.parse" not in str(info.value)
    with pytest.raises(DeckError, match=r"for these cards use Deck\.parse\('AS KH'\)"):
        Deck("AS KH")
    with pytest.raises(DeckError, match="position 1"):
        Deck([Card.parse("AS"), "KS"])  # type: ignore[list-item]
    with pytest.raises(CroupierError, match="not both"):
        Deck(seed="a", source=SeededSource("a"))
    with pytest.raises(SeedError, match="seed="):
        Deck(seed=2.5)  # type: ignore[arg-type]


# -------------------------------------------------------------- looking at it
def test_dunder_methods() -> None:
    deck = Deck(SPADES[:4])
    assert len(deck) == 4
    assert list(iter(deck)) == SPADES[:4]
    assert Card.parse("QS") in deck and "JS" in deck and "2S" not in deck
    assert deck[0] == SPADES[0] and deck[-1] == SPADES[3] and deck[1:3] == SPADES[1:3]
    assert deck == Deck(SPADES[:4]) and deck != Deck(SPADES[:4][::-1])
    assert deck != SPADES[:4]
    with pytest.raises(TypeError):
        hash(deck)
    assert repr(deck) == "<Deck of 4 cards: AS KS QS JS>"
    assert repr(Deck([])) == "<Deck of 0 cards>"
    assert repr(Deck(SPADES[:1])) == "<Deck of 1 card: AS>"
    assert repr(Deck()) == "<Deck of 52 cards: AC 2C 3C … QS KS>"
    assert str(Deck.parse("TH AS")) == "10♥ A♠"
    assert deck.cards == tuple(SPADES[:4])


def test_iterating_while_drawing_sees_a_snapshot() -> None:
    deck = Deck(SPADES[:4])
    seen = []
    for card in deck:
        seen.append(card)
        if len(deck):
            deck.draw()
    assert seen == SPADES[:4]


def test_repr_html_delegates_to_cards_html() -> None:
    for deck in (Deck(), Deck.parse("AS 10H QD JK"), Deck([])):
        assert deck._repr_html_() == cards_html(list(deck))
    assert "#c00000" in Deck.parse("QH")._repr_html_()


# ------------------------------------------------------- taking, small cases
@pytest.mark.parametrize("n", range(6))
def test_draw_and_peek_every_count_from_both_ends(n: int) -> None:
    cards = _small(n)
    for k in range(n + 1):
        for bottom in (False, True):
            deck = Deck(cards)
            packet = cards[n - k :] if bottom else cards[:k]
            rest = cards[: n - k] if bottom else cards[k:]
            assert deck.peek(k, bottom=bottom) == packet
            assert list(deck) == cards
            assert deck.draw(k, bottom=bottom) == packet
            assert list(deck) == rest
            deck.put(packet, bottom=bottom)
            assert list(deck) == cards
    if n >= 2:
        deck = Deck(cards)
        assert deck.peek() == cards[0] and deck.peek(bottom=True) == cards[-1]
        assert deck.draw() == cards[0] and deck.draw(bottom=True) == cards[-1]
        assert list(deck) == cards[1 : n - 1]


@pytest.mark.parametrize("n", range(5))
def test_asking_for_too_many_cards_says_how_many(n: int) -> None:
    deck = Deck(_small(n))
    for k in range(n + 1, n + 4):
        cards = "card" if k == 1 else "cards"
        for call, kwargs, what in (
            (deck.draw, {}, f"cannot draw {k} {cards} (n={k})"),
            (deck.draw, {"bottom": True}, f"cannot draw {k} {cards} (n={k})"),
            (deck.peek, {}, f"cannot peek at {k} {cards} (n={k})"),
            (deck.burn, {}, f"cannot burn {k} {cards} (n={k})"),
        ):
            with pytest.raises(NotEnoughCardsError) as info:
                call(k, **kwargs)  # type: ignore[operator]
            assert str(info.value).startswith(what)
            assert f"only {n} remain" in str(info.value)
            assert (info.value.asked, info.value.remaining) == (k, n)
            assert isinstance(info.value, CroupierError)
        assert list(deck) == _small(n)  # nothing was taken


def test_drawing_from_an_empty_deck() -> None:
    deck = Deck([])
    for call in (deck.draw, deck.peek, lambda: deck.draw(bottom=True)):
        with pytest.raises(NotEnoughCardsError, match="only 0 remain") as info:
            call()
        assert (info.value.asked, info.value.remaining) == (1, 0)
    one = Deck(SPADES[:1])
    with pytest.raises(NotEnoughCardsError, match="only 1 remains"):
        one.draw(2)


def test_not_enough_cards_error_survives_pickling() -> None:
    exc = NotEnoughCardsError("cannot draw 3 cards (n=3): only 1 remains", asked=3, remaining=1)
    back = pickle.loads(pickle.dumps(exc))
    assert (str(back), back.asked, back.remaining) == (str(exc), 3, 1)


@pytest.mark.parametrize("bad", [-1, 1.0, True, "2"])
def test_counts_must_be_whole_numbers(bad: object) -> None:
    deck = Deck()
    for call in (deck.draw, deck.peek, deck.burn):
        with pytest.raises(RangeError, match="n="):
            call(bad)  # type: ignore[operator]
    with pytest.raises(RangeError, match=r"n=|players="):
        deck.deal(bad, players=2)  # type: ignore[arg-type]
    with pytest.raises(RangeError, match="players="):
        deck.deal(1, players=bad)  # type: ignore[arg-type]
    assert len(deck) == 52


def test_burn_returns_what_draw_would() -> None:
    """``burn()`` is one card and ``burn(n)`` a packet, as ``draw()`` and ``draw(n)``."""
    deck = Deck(_small(6))
    assert deck.burn() == _small(1)[0]
    assert deck.burn(2) == _small(3)[1:]
    assert deck.burn(0) == []
    assert deck.burn(1) == [_small(4)[3]]
    assert list(deck) == _small(6)[4:]
    drawn, burnt = Deck(_small(3)), Deck(_small(3))
    assert drawn.draw() == burnt.burn() and drawn.draw(2) == burnt.burn(2)
    with pytest.raises(NotEnoughCardsError, match="cannot burn a card: only 0 remain"):
        burnt.burn()


@pytest.mark.parametrize("size", range(9))
def test_round_robin_deal_gives_every_player_every_kth_card(size: int) -> None:
    cards = _small(size)
    for players in range(1, 5):
        for n in range(size // players + 1):
            deck = Deck(cards)
            hands = deck.deal(n, players=players)
            assert len(hands) == players
            for p, hand in enumerate(hands):
                assert hand == [cards[j * players + p] for j in range(n)]
            assert list(deck) == cards[n * players :]
        deck = Deck(cards)
        n = size // players + 1
        with pytest.raises(NotEnoughCardsError) as info:
            deck.deal(n, players=players)
        assert (info.value.asked, info.value.remaining) == (n * players, size)
        assert f"to each of {players} players ({n * players} cards)" in str(info.value)
        assert list(deck) == cards


def test_deal_needs_a_player() -> None:
    with pytest.raises(RangeError, match="players= must be at least 1"):
        Deck().deal(1, players=0)


# ------------------------------------------------------ giving back, searching
def test_put_on_top_and_bottom_keeps_the_packet_order() -> None:
    deck = Deck(_small(2))
    deck.put(parse_cards("2H 3H"))
    deck.put("4H", bottom=True)
    deck.put([Card.parse("5H"), "6H"], bottom=True)
    deck.put(Card.parse("7H"))
    assert list(deck) == parse_cards("7H 2H 3H AS KS 4H 5H 6H")
    with pytest.raises(DeckError, match="expected a card"):
        deck.put([3])  # type: ignore[list-item]


@pytest.mark.parametrize("n", range(6))
def test_insert_and_remove_at_every_position(n: int) -> None:
    cards = _small(n)
    extra = Card.parse("2H")
    for i in range(n + 1):
        deck = Deck(cards)
        deck.insert(i, extra)
        assert list(deck) == [*cards[:i], extra, *cards[i:]]
        assert deck.find(extra) == i
        assert deck.remove(extra) == i
        assert list(deck) == cards
        packet = parse_cards("2H 3H")
        deck.insert(i, packet)
        assert list(deck) == [*cards[:i], *packet, *cards[i:]]
    for i, card in enumerate(cards):
        deck = Deck(cards)
        assert deck.remove(card) == i
        assert list(deck) == cards[:i] + cards[i + 1 :]
        deck.insert(i, card)
        assert list(deck) == cards
    for bad in (-1, n + 1):
        with pytest.raises(RangeError, match=f"index={bad} is out of range.*0..{n}"):
            Deck(cards).insert(bad, extra)
    with pytest.raises(RangeError, match="index="):
        Deck(cards).insert(True, extra)


def test_find_and_remove_missing_cards() -> None:
    deck = Deck("euchre")
    with pytest.raises(CardNotFoundError, match=r"card 2C is not in the deck \(24 cards\)"):
        deck.find("2C")
    with pytest.raises(CardNotFoundError):
        deck.remove(Card.parse("8D"))
    assert len(deck) == 24
    shoe = Deck("shoe:2")
    assert shoe.find("AC") == 0 and shoe.find("AC#2") == 52


def test_find_all_by_rank_and_suit() -> None:
    deck = Deck()
    deck.shuffle(source=SeededSource("find"))
    cards = list(deck)
    for rank in Rank.standard():
        assert deck.find_all(rank=rank) == [i for i, c in enumerate(cards) if c.rank is rank]
    for suit in Suit:
        assert deck.find_all(suit=suit.letter) == [i for i, c in enumerate(cards) if c.suit is suit]
    [queen] = deck.find_all(rank="Q", suit="♥")
    assert cards[queen] == Card.parse("QH")
    assert deck.find_all() == list(range(52))
    assert Deck("jokers2").find_all(rank=Rank.JOKER) == [52, 53]


# ------------------------------------------------------------- rearranging
@pytest.mark.parametrize("n", range(6))
def test_cut_is_the_cut_move(n: int) -> None:
    cards = _small(n)
    for k in range(-n - 1, 2 * n + 2):
        deck = Deck(cards)
        deck.cut(k)
        assert list(deck) == cut(cards, k)
    with pytest.raises(RangeError, match="k="):
        Deck(cards).cut(1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("order", order_names())
def test_sort_is_sort_cards(order: str) -> None:
    deck = Deck("pinochle")
    deck.shuffle(source=SeededSource("sort"))
    shuffled = list(deck)
    deck.sort(order)
    assert list(deck) == sort_cards(shuffled, order)
    deck.sort(order, descending=True)
    assert list(deck) == sort_cards(shuffled, order, descending=True)


def test_sort_by_default_restores_a_fresh_deck() -> None:
    deck = Deck(seed="fresh")
    deck.shuffle()
    assert deck != Deck()
    deck.sort()
    assert deck == Deck()


# ---------------------------------------------------------------- shuffling
def test_seeded_shuffles_are_reproducible_and_count_their_bits() -> None:
    a, b = Deck(seed="table 3"), Deck(source=SeededSource("table 3", "shuffle"))
    src = b.source
    assert isinstance(src, SeededSource)
    totals = 0.0
    for _ in range(3):
        before = src.bits_used
        a.shuffle()
        b.shuffle()
        assert a == b
        assert b.last_shuffle_bits == src.bits_used - before
        totals += b.last_shuffle_bits
    assert a.shuffle_bits == b.shuffle_bits == totals
    assert a.shuffles == b.shuffles == 3
    first, other = Deck(seed="table 3"), Deck(seed="table 4")
    first.shuffle()
    other.shuffle()
    assert first != other  # another seed, another order (all but certainly)


def test_shuffle_is_the_library_shuffle() -> None:
    """A deck's first shuffle with a seed is croupier.shuffle of its cards with that seed."""
    for name in ("standard", "euchre", "canasta"):
        deck = Deck(name, seed=f"s-{name}")
        deck.shuffle()
        assert list(deck) == croupier.shuffle(make_deck(name), seed=f"s-{name}")
    deck = Deck()
    deck.shuffle(source=SeededSource("m", "shuffle"), method="merge-shuffle")
    expected = croupier.shuffle(make_deck("standard"), method="merge-shuffle", seed="m")
    assert list(deck) == expected


def test_shuffle_is_what_croupier_shuffle_deck_prints(cli: CliRunner) -> None:
    result = cli(["shuffle", "--deck", "euchre", "--seed", "game night", "--json"])
    assert result.code == 0, result.err
    deck = Deck("euchre", seed="game night")
    deck.shuffle()
    assert [c.code for c in deck] == json.loads(result.out)["result"]["items"]


def test_default_method_follows_the_size_rule() -> None:
    assert default_shuffle_method(0).name == "lehmer"
    assert default_shuffle_method(2048).name == "lehmer"
    assert default_shuffle_method(2049).name == "split"
    assert default_shuffle_method(2049, rule=1).name == "fisher-yates"
    deck = Deck("shoe:40", seed="big")  # 2,080 cards
    deck.shuffle()
    expected = default_shuffle_method(2080)(
        make_deck("shoe:40"), UniformSampler(SeededSource("big", "shuffle"))
    )
    assert list(deck) == expected


def test_shuffle_with_a_seed_is_the_seeded_decks_first_shuffle(cli: CliRunner) -> None:
    result = cli(["shuffle", "--deck", "euchre", "--seed", "game night"])
    assert result.code == 0, result.err
    printed = result.out.split()
    table = Deck("euchre", seed="own seed")
    table.shuffle(seed="game night")
    assert [c.code for c in table] == printed
    table.sort()
    table.shuffle(seed="game night")  # the same seed again: the same order again
    assert [c.code for c in table] == printed
    assert table.shuffles == 2 and table.last_shuffle_bits > 0
    own = Deck("euchre", seed="own seed")  # a seed given to one shuffle leaves the deck's own
    own.shuffle()
    table.sort()
    table.shuffle()
    assert table == own
    with pytest.raises(CroupierError, match="not both"):
        table.shuffle(seed="x", source=SeededSource("x"))


@pytest.mark.parametrize("seed", [42, b"\x00\xff", "42"])
def test_deck_seeds_are_text_whole_numbers_or_bytes(seed: str | int | bytes) -> None:
    same = {42: "42", b"\x00\xff": "hex:00ff", "42": "42"}[seed]
    a, b = Deck(seed=seed), Deck(seed=same)
    a.shuffle()
    b.shuffle()
    assert a == b
    c = Deck()
    c.shuffle(seed=seed)
    assert c == a


@pytest.mark.parametrize(
    "make",
    [
        lambda: Deck(5),  # type: ignore[arg-type]
        lambda: Deck(source=5),  # type: ignore[arg-type]
        lambda: Deck().shuffle(source="x"),  # type: ignore[arg-type]
        lambda: Deck().shuffle(seed=2.5),  # type: ignore[arg-type]
        lambda: Deck().shuffle(method=5),  # type: ignore[arg-type]
        lambda: Deck().burn("2"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_are_croupier_errors(make: Callable[[], object]) -> None:
    with pytest.raises(CroupierError) as info:
        make()
    assert "\n" not in str(info.value)


def test_a_source_passed_to_shuffle_wins_over_the_decks() -> None:
    deck = Deck(seed="own")
    deck.shuffle(source=SeededSource("other", "shuffle"))
    other = Deck(seed="other")
    other.shuffle()
    assert deck == other


def test_the_default_source_is_the_os_csprng() -> None:
    deck = Deck()
    assert deck.source is None
    deck.shuffle()
    assert deck.source is not None and deck.source.kind == "os-csprng"
    assert deck.last_shuffle_bits >= 225  # log2(52!) ~ 225.58
    assert sorted(deck) == sorted(Deck())


@pytest.mark.parametrize("method", ["lehmer", "fisher-yates", "merge-shuffle"])
def test_in_place_shuffle_of_three_cards_is_exactly_uniform(method: str) -> None:
    """Walk every bit string the shuffle can read (up to 24 bits): each order has
    the same exact probability, and the runs needing more bits are rare."""
    three = _small(3)

    def shuffle_once(source: BitSource) -> tuple[Card, ...]:
        deck = Deck(three, source=source)
        deck.shuffle(method=method)
        assert deck.last_shuffle_bits == source.bits_used
        return deck.cards

    done, unfinished = exact_distribution_bits(shuffle_once, 24)
    assert len(done) == factorial(3)
    probabilities = {p for p, _bits in done.values()}
    assert len(probabilities) == 1
    assert unfinished < Fraction(1, 2**10)
    assert sum(p for p, _ in done.values()) + unfinished == 1


def test_a_replayed_shuffle_counts_exactly_the_bits_it_read() -> None:
    deck = Deck(_small(3), source=ReplayBitSource([5]))  # 3 bits: 5 < 3! so no rejection
    deck.shuffle()
    assert deck.last_shuffle_bits == 3
    assert deck.cards == (SPADES[2], SPADES[1], SPADES[0])  # rank 5 = the last order


# --------------------------------------------------- conservation of cards
OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["draw", "draw1", "burn", "deal", "put", "insert", "remove", "cut", "sort", "shuffle"]
        ),
        st.integers(0, 60),
        st.integers(0, 60),
        st.booleans(),
    ),
    max_size=25,
)


@given(st.sampled_from(["standard", "euchre", "pinochle", "jokers2"]), OPS)
def test_cards_are_conserved(name: str, ops: list[tuple[str, int, int, bool]]) -> None:
    """Whatever is done, the deck and the cards in hand are the original cards."""
    original = Counter(make_deck(name))
    deck = Deck(name, source=SeededSource("conserve"))
    held: list[Card] = []
    for op, a, b, flag in ops:
        left = len(deck)
        try:
            if op == "draw":
                held += deck.draw(a % 8, bottom=flag)
            elif op == "draw1":
                held.append(deck.draw(bottom=flag))
            elif op == "burn":
                held += deck.burn(a % 4)
            elif op == "deal":
                for hand in deck.deal(a % 6, players=1 + b % 4):
                    held += hand
            elif op == "put" and held:
                k = 1 + a % len(held)
                packet, held = held[:k], held[k:]
                deck.put(packet, bottom=flag)
            elif op == "insert" and held:
                deck.insert(b % (len(deck) + 1), held.pop())
            elif op == "remove" and len(deck):
                card = deck[a % len(deck)]
                deck.remove(card)
                held.append(card)
            elif op == "cut":
                deck.cut(a - 30)
            elif op == "sort":
                deck.sort(descending=flag)
            elif op == "shuffle":
                deck.shuffle()
        except NotEnoughCardsError as exc:
            assert exc.remaining == left and exc.asked > left
            assert len(deck) == left
        assert Counter(deck) + Counter(held) == original
