"""Notebook display: every ``_repr_html_`` renders well-formed HTML that shows what it should."""

from __future__ import annotations

import math
import sys
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import numpy as np
import pytest

from croupier.analysis.display import NO_PLOT_NOTE
from croupier.analysis.mixing import riffle_mixing_curve
from croupier.analysis.run import exact_report, monte_carlo, repeat_report
from croupier.cards import Card, Rank, Suit, parse_cards
from croupier.dealing.deal import Deal, deal_from_number
from croupier.dealing.layout import make_layout
from croupier.decks import make_deck
from croupier.html import RED, card_html, cards_html, table_html
from croupier.perm import Permutation
from croupier.randomness import SeededSource

VOID_ELEMENTS = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "source"}
RED_SUITS = {"Hearts", "Diamonds"}  # the suits a card table prints in red


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    row: int  # how many <tr> had started before this element (its table row)
    text: list[str] = field(default_factory=list)


class Page(HTMLParser):
    """Parses an HTML snippet, checking every tag is closed in order, and indexes it."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[Element] = []
        self.elements: list[Element] = []
        self.rows = 0
        self.text: list[str] = []
        self.feed(text)
        self.close()
        assert not self.stack, f"unclosed tags: {[e.tag for e in self.stack]}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows += 1
        element = Element(tag, {k: v or "" for k, v in attrs}, self.rows)
        self.elements.append(element)
        if tag not in VOID_ELEMENTS:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}, self.rows))

    def handle_endtag(self, tag: str) -> None:
        assert tag not in VOID_ELEMENTS, f"</{tag}> closes a void element"
        assert self.stack, f"</{tag}> closes nothing"
        open_ = self.stack.pop()
        assert open_.tag == tag, f"<{open_.tag}> closed by </{tag}>"

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for element in self.stack:
            element.text.append(data)

    def with_class(self, name: str) -> list[Element]:
        return [e for e in self.elements if name in e.attrs.get("class", "").split()]

    def cards(self) -> Counter[str]:
        return Counter(e.attrs["data-card"] for e in self.elements if "data-card" in e.attrs)

    def all_text(self) -> str:
        return "".join(self.text)


def is_red(element: Element) -> bool:
    return f"color:{RED}" in element.attrs.get("style", "")


# -- cards --------------------------------------------------------------------------------


ALL_KINDS = [*make_deck("standard"), Card.joker(0), Card.joker(1), Card.parse("QH#3")]


@pytest.mark.parametrize("card", ALL_KINDS, ids=lambda c: c.code)
def test_card_html_shows_the_card_red_for_hearts_and_diamonds(card: Card) -> None:
    for html in (card_html(card), card._repr_html_()):
        page = Page(html)
        (span,) = page.with_class("croupier-card")
        assert span.attrs["data-card"] == card.code
        assert is_red(span) == (card.suit in (Suit.HEARTS, Suit.DIAMONDS))
        if card.suit is None:
            expected = "JK"
        else:
            expected = ("10" if card.rank is Rank.TEN else card.rank.letter) + "♣♦♥♠"[card.suit]
        copy = f"#{card.copy + 1}" if card.copy else ""
        assert "".join(span.text) == expected + copy


def test_cards_html_shows_every_card_of_a_shoe_once() -> None:
    shoe = [*make_deck("shoe:2"), Card.joker(0)]
    page = Page(cards_html(shoe))
    assert page.cards() == Counter(c.code for c in shoe)
    assert max(page.cards().values()) == 1  # copies are told apart
    reds = [e for e in page.with_class("croupier-card") if is_red(e)]
    assert len(reds) == 2 * 26


def test_deck_shows_its_cards_top_first() -> None:
    from croupier.deck import Deck

    deck = Deck("shoe:2")
    page = Page(deck._repr_html_())
    spans = page.with_class("croupier-card")
    assert [s.attrs["data-card"] for s in spans] == [c.code for c in deck]
    assert max(page.cards().values()) == 1
    assert sum(is_red(s) for s in spans) == 2 * 26


def test_empty_card_list_and_escaped_separator() -> None:
    assert Page(cards_html([])).all_text() == "—"
    page = Page(cards_html(parse_cards("AS KS"), sep=" <&> "))
    assert page.all_text() == "A♠ <&> K♠"
    assert [e.tag for e in page.elements] == ["span", "span", "span"]


def test_table_text_is_escaped() -> None:
    page = Page(table_html([["<i>x</i>"]], header=["<th>"], caption="<script>alert(1)</script>"))
    assert "script" not in {e.tag for e in page.elements}
    assert "<script>alert(1)</script>" in page.all_text()
    assert "<th>" in page.all_text()


# -- permutations -------------------------------------------------------------------------


def _cycle_texts(page: Page) -> list[str]:
    return ["".join(e.text) for e in page.with_class("croupier-cycle")]


@pytest.mark.parametrize("seed", range(6))
def test_permutation_cycles_match_cycles(seed: int) -> None:
    n = 5 + 7 * seed
    p = Permutation(np.random.default_rng(seed).permutation(n))
    page = Page(p._repr_html_())
    expected = ["(" + " ".join(map(str, c)) + ")" for c in p.cycles()]
    assert _cycle_texts(page) == expected
    assert f"[{', '.join(map(str, p.tolist()))}]" in page.all_text()
    assert ("+1" in page.all_text()) == (p.sign() == 1)


def test_identity_has_no_cycles() -> None:
    page = Page(Permutation.identity(4)._repr_html_())
    assert _cycle_texts(page) == []
    assert "()" in page.all_text()


def test_big_permutation_is_cut_short_and_says_so() -> None:
    n = 10_000
    p = Permutation(np.random.default_rng(7).permutation(n))
    page = Page(p._repr_html_())
    text = page.all_text()
    assert f"({n - 64:,} more)" in text
    assert ", ".join(map(str, p.tolist()[:64])) in text
    shown = _cycle_texts(page)
    cycles = p.cycles()
    assert 1 <= len(shown) <= len(cycles)
    # every shown cycle is a real one, or the start of one marked as cut
    for text_, cycle in zip(shown, cycles, strict=False):
        numbers = text_.strip("()").replace(" …", "").split()
        assert [int(x) for x in numbers] == list(cycle[: len(numbers)])
        assert text_.endswith(" …)") == (len(numbers) < len(cycle))
    assert "cycles; … marks a cut" in text


def test_cycles_of_huge_permutations_are_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    import croupier.perm

    monkeypatch.setattr(croupier.perm, "_HTML_LIST_CYCLES", 100)
    page = Page(Permutation(np.arange(200)[::-1].copy())._repr_html_())
    assert _cycle_texts(page) == []
    assert "not listed above 100 positions" in page.all_text()
    (sup,) = [e for e in page.elements if e.tag == "sup"]  # the cycle type stays: 2^100
    assert "".join(sup.text) == "100"


def test_huge_order_is_shown_by_its_size() -> None:
    primes = [q for q in range(2, 200) if all(q % d for d in range(2, q))]
    cycles: list[list[int]] = []
    start = 0
    for q in primes:
        cycles.append(list(range(start, start + q)))
        start += q
    one_line = list(range(start))
    for c in cycles:
        for a, b in zip(c, c[1:] + c[:1], strict=True):
            one_line[a] = b
    p = Permutation(one_line)
    order = math.prod(primes)
    assert order.bit_length() > 200
    text = Page(p._repr_html_()).all_text()
    assert f"× 10{len(str(order)) - 1}" in text


# -- deals --------------------------------------------------------------------------------


def _deal_cards(deal: Deal) -> Counter[str]:
    return Counter(c.code for pile in deal.piles for c in pile)


@pytest.mark.parametrize("number", [0, 1, 12345678901234567890, 53644737765488792839237439999])
def test_bridge_deal_is_a_compass_diagram(number: int) -> None:
    deal = deal_from_number(make_layout("bridge"), number)
    page = Page(deal._repr_html_())
    assert page.cards() == _deal_cards(deal) and len(page.cards()) == 52
    hands = {e.attrs["data-seat"]: e for e in page.with_class("croupier-hand")}
    assert set(hands) == {"N", "E", "S", "W"}
    assert hands["N"].row < hands["W"].row == hands["E"].row < hands["S"].row
    order = [e.attrs.get("data-seat") for e in page.with_class("croupier-hand")]
    assert order.index("W") < order.index("E")
    # each seat holds its own hand, a line per suit
    seats = dict(zip("NESW", deal.piles, strict=True))
    for seat, element in hands.items():
        inside = page.elements[page.elements.index(element) :]
        codes = [e.attrs["data-card"] for e in inside if "data-card" in e.attrs][:13]
        assert sorted(codes) == sorted(c.code for c in seats[seat])
    suits = page.with_class("croupier-suit")
    assert len(suits) == 16
    for s in suits:
        assert is_red(s) == (s.attrs["title"] in RED_SUITS)
    voids = sum(1 for hand in deal.piles for suit in Suit if not any(c.suit is suit for c in hand))
    assert page.all_text().count("—") == voids


def test_a_void_shows_as_a_dash() -> None:
    page = Page(deal_from_number(make_layout("bridge"), 0)._repr_html_())
    assert page.all_text().count("—") == 12  # deal 0: every hand holds one whole suit


@pytest.mark.parametrize(
    ("game", "players", "deck"),
    [
        ("skat", None, None),
        ("pinochle", None, None),
        ("holdem", 3, None),
        ("go-fish", 4, None),
        ("custom", None, "shoe:2"),
        ("custom", None, "jokers2"),
    ],
)
def test_other_games_are_a_table_of_piles(game: str, players: int | None, deck: str | None) -> None:
    hands = [7, 7, 7] if game == "custom" else None
    layout = make_layout(game, players=players, hands=hands, deck=deck)
    deal = deal_from_number(layout, layout.count // 3)
    page = Page(deal._repr_html_())
    assert page.cards() == _deal_cards(deal)
    assert max(page.cards().values()) == 1
    stacks = page.with_class("croupier-stack")
    assert len(page.with_class("croupier-hand")) + len(stacks) == len(layout.piles)
    assert len(stacks) == len(layout.stack_piles)
    for s in page.with_class("croupier-suit"):
        assert is_red(s) == (s.attrs["title"] in RED_SUITS)
    for name in (p.name for p in layout.piles):
        assert name in page.all_text()


def test_pile_names_are_escaped() -> None:
    layout = make_layout(hands=[1, 1], deck="stripped:A", names=["<b>x</b>", "A&B"])
    page = Page(deal_from_number(layout, 0)._repr_html_())
    assert "b" not in {e.tag for e in page.elements}
    assert "<b>x</b>" in page.all_text() and "A&B" in page.all_text()


def test_rendering_is_pure() -> None:
    deal = deal_from_number(make_layout("bridge"), 42)
    assert deal._repr_html_() == deal._repr_html_()
    report = exact_report("swap-any", 3)
    assert report._repr_html_() == exact_report("swap-any", 3)._repr_html_()


# -- analysis results ---------------------------------------------------------------------


def _results() -> list[tuple[str, Any]]:
    return [
        ("exact", exact_report("swap-any", 4)),
        ("exact-deal", exact_report("deal:optimal", 4, (2, 2))),
        ("repeat", repeat_report("sattolo-mistake", 4, 40)),
        ("mixing", riffle_mixing_curve(52, 12)),
        ("monte-carlo", monte_carlo("fisher-yates", 6, 300, SeededSource("display"))),
    ]


@pytest.mark.parametrize("matplotlib", [True, False], ids=["with-plot", "without-matplotlib"])
def test_analysis_results_render(matplotlib: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not matplotlib:  # as if the analysis extra were not installed
        for name in ("matplotlib", "matplotlib.figure", "matplotlib.pyplot"):
            monkeypatch.setitem(sys.modules, name, None)
    for kind, result in _results():
        html = result._repr_html_()
        page = Page(html)
        assert ("<svg" in html) == matplotlib, kind
        assert (NO_PLOT_NOTE in html) != matplotlib, kind
        assert page.with_class("croupier-analysis"), kind


def test_exact_report_table_holds_the_exact_numbers() -> None:
    report = exact_report("swap-any", 3)
    text = Page(report._repr_html_()).all_text()
    assert f"{report.tv} ≈" in text and report.tv == pytest.approx(1 / 18)
    assert f"{report.reachable:,} of {report.space:,}" in text
    assert "biased" in text


def test_long_curves_are_cut_in_the_table_not_the_plot() -> None:
    curve = riffle_mixing_curve(52, 40)
    page = Page(curve._repr_html_())
    rows = [e for e in page.elements if e.tag == "tr"]
    assert len(rows) == 1 + 15 + 1 + 5  # header, first rows, "…", last rows
    assert "…" in page.all_text()
    # 52-card fractions have hundreds of digits: the table shows their decimals only
    cells = ["".join(e.text) for e in page.elements if e.tag == "td"]
    assert max(len(cell) for cell in cells) < 20
    assert f"{curve[0].tv} ≈" not in page.all_text()
    assert "<svg" in curve._repr_html_()
    needed = next(p.shuffles for p in curve if 2 * p.tv < 1)
    assert f"TV below 1/2 after {needed} riffles" in page.all_text()


def test_mixing_curve_is_still_a_list() -> None:
    curve = riffle_mixing_curve(10, 3)
    assert isinstance(curve, list) and len(curve) == 3
    assert curve == list(curve) and curve[:1] == [curve[0]]
