"""The compiled deal-text kernels give exactly what their plain-Python references give.

``croupier._core.deal_text.whole_deal`` (Cython) reads a whole PBN deal string; the
reference is ``croupier.formats.pbn_deal._whole_deal_reference``.  They are compared on
random deals from every first seat and on thousands of damaged strings (a character
changed, dropped, doubled or added; cases, spaces, cards twice, long suits, other scripts).
``whole_md`` (a LIN ``md`` value) is held to ``croupier.formats.lin._whole_md_reference``
the same way.  ``hand_text`` (many deals' hands as text, with no sort) is held to
``croupier.bulk.writers.text._bridge_hands_reference`` (which sorts) on random deals,
hands of any length and both letter tables.
"""

from __future__ import annotations

import random

import pytest

from croupier._core.deal_text import whole_deal, whole_md
from croupier.cards import BRIDGE_DECK
from croupier.formats import lin
from croupier.formats.pbn_deal import _whole_deal, _whole_deal_reference, format_pbn_deal
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank
from tests.reader_checks import lin_hands

ODD = "AKQJT98765432akqjt .-\t\n:0١２Ａ\u00a0\ud800xX"


def bodies(rng: random.Random, count: int) -> list[str]:
    return [format_pbn_deal(goedel_unrank(rng.randrange(GOEDEL_MAX)))[2:] for _ in range(count)]


def damaged(rng: random.Random, body: str) -> str:
    at = rng.randrange(len(body))
    kind = rng.randrange(6)
    if kind == 0:
        return body[:at] + rng.choice(ODD) + body[at + 1 :]
    if kind == 1:
        return body[:at] + body[at + 1 :]
    if kind == 2:
        return body[:at] + body[at] + body[at:]
    if kind == 3:
        return body[:at] + rng.choice(ODD) + body[at:]
    if kind == 4:
        return body[:at]
    return body.replace(" ", rng.choice(["  ", " ", "."]), 1)


def same(body: str, start: int) -> None:
    compiled, reference = _whole_deal(body, start), _whole_deal_reference(body, start)
    assert compiled == reference, body
    if compiled is not None and reference is not None:  # the very card objects
        assert all(a is b for x, y in zip(compiled, reference, strict=True)
                   for a, b in zip(x, y, strict=True))  # fmt: skip


@pytest.mark.parametrize("seed", range(8))
def test_whole_deals_agree(seed: int) -> None:
    rng = random.Random(seed)
    for body in bodies(rng, 300):
        for start in range(4):
            same(body, start)
            assert _whole_deal(body, start) is not None


@pytest.mark.parametrize("seed", range(8))
def test_damaged_deals_agree(seed: int) -> None:
    rng = random.Random(100 + seed)
    for body in bodies(rng, 150):
        for _ in range(8):
            text = damaged(rng, body)
            for _ in range(rng.randrange(3)):
                text = damaged(rng, text) if text else text
            same(text, rng.randrange(4))


@pytest.mark.parametrize(
    "body",
    [
        "",
        " ",
        "AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
        "AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 ",
        "AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543",
        "AKQJT98765432.... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
        "AKQJT98765432A... .KQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
        "AKQJT9876543... 2.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
        "KA... - - -",
    ],
)
def test_edge_cases_agree(body: str) -> None:
    for start in range(4):
        same(body, start)


def test_the_deck_must_hold_52_cards() -> None:
    with pytest.raises(ValueError, match="52 cards"):
        whole_deal("...", 0, BRIDGE_DECK[:51])


# -- LIN md values ----------------------------------------------------------------------------
def an_md(rng: random.Random) -> str:
    parts = lin_hands(rng)
    if rng.random() < 0.3:
        parts[3] = ""  # the fourth hand left out
    return rng.choice(["", "1", "2", "3", "4"]) + ",".join(parts)


def same_md(md: str) -> None:
    compiled, reference = whole_md(md, BRIDGE_DECK), lin._whole_md_reference(md)
    assert compiled == reference, md
    if compiled is not None and reference is not None:
        assert all(a is b for x, y in zip(compiled[1], reference[1], strict=True)
                   for a, b in zip(x, y, strict=True))  # fmt: skip


@pytest.mark.parametrize("seed", range(8))
def test_whole_md_values_agree(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(300):
        md = an_md(rng)
        same_md(md)
        assert whole_md(md, BRIDGE_DECK) is not None, md


MD_ODD = "SHDCAKQJT98765432shdc,|0559 \t١"


@pytest.mark.parametrize("seed", range(8))
def test_damaged_md_values_agree(seed: int) -> None:
    rng = random.Random(300 + seed)
    for _ in range(150):
        md = an_md(rng)
        for _ in range(8):
            text = md
            for _ in range(1 + rng.randrange(3)):
                if not text:
                    break
                at = rng.randrange(len(text))
                kind = rng.randrange(4)
                if kind == 0:
                    text = text[:at] + rng.choice(MD_ODD) + text[at + 1 :]
                elif kind == 1:
                    text = text[:at] + text[at + 1 :]
                elif kind == 2:
                    text = text[:at] + rng.choice(MD_ODD) + text[at:]
                else:
                    text = text[:at]
            same_md(text)


@pytest.mark.parametrize(
    "md",
    ["", "3", "3,,,", "3SHDC,SHDC,SHDC,", "5SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,",
     "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C",
     "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,,",
     "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,SHDCAKQJT98765432,"],
)  # fmt: skip
def test_md_edge_cases_agree(md: str) -> None:
    same_md(md)


def test_an_md_deck_must_hold_52_cards() -> None:
    with pytest.raises(ValueError, match="52 cards"):
        whole_md("", BRIDGE_DECK[:3])


def test_hand_text_writes_what_sorting_writes() -> None:
    import numpy as np

    from croupier._core.deal_text import hand_text
    from croupier.bulk import deal_array
    from croupier.bulk.writers import text

    keys = text._bridge_card_keys(deal_array(1, seed="k").layout)
    rng = np.random.default_rng(34)
    dealt = deal_array(2000, seed="hand text").piles
    # any number of cards a hand (one hand may hold them all), and an empty batch
    uneven = rng.integers(0, 4, (500, 52)).astype(np.uint8)
    uneven[:4] = [[p] * 52 for p in range(4)]
    for piles in (dealt, uneven, dealt[:0]):
        for letters in (text._LETTERS, text._LIN_LETTERS):
            want = text._bridge_hands_reference(piles, keys, letters)
            assert text._bridge_hands(piles, keys, letters).tobytes() == want.tobytes()
    first = text._bridge_hands(dealt[:1], keys)[0].tobytes().decode()
    assert [
        len(hand.replace(".", "")) for hand in (first[i : i + 16] for i in range(0, 64, 16))
    ] == [13] * 4

    out = np.zeros((1, 64), np.uint8)
    bad = dealt[:1].copy()
    bad[0, 7] = 4
    with pytest.raises(ValueError, match="pile 4"):
        hand_text(bad, keys, text._DOTS, text._LETTERS, out)
    twice = keys.copy()
    twice[1] = twice[0]
    with pytest.raises(ValueError, match="distinct"):
        hand_text(dealt[:1], twice, text._DOTS, text._LETTERS, out)
    on_dot = keys.copy()
    on_dot[0] = 15
    with pytest.raises(ValueError, match="dot"):
        hand_text(dealt[:1], on_dot, text._DOTS, text._LETTERS, out)
    with pytest.raises(ValueError, match="64 bytes"):
        hand_text(dealt[:1], keys, text._DOTS, text._LETTERS, np.zeros((1, 63), np.uint8))
