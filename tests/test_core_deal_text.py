"""The compiled deal-text kernel gives exactly what its plain-Python reference gives.

``croupier._core.deal_text.whole_deal`` (Cython) reads a whole PBN deal string; the
reference is ``croupier.formats.pbn_deal._whole_deal_reference``.  They are compared on
random deals from every first seat and on thousands of damaged strings (a character
changed, dropped, doubled or added; cases, spaces, cards twice, long suits, other scripts).
"""

from __future__ import annotations

import random

import pytest

from croupier._core.deal_text import whole_deal
from croupier.cards import BRIDGE_DECK
from croupier.formats.pbn_deal import _whole_deal, _whole_deal_reference, format_pbn_deal
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank

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
