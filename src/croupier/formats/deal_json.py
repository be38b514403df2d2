"""Deals as JSON: one object per deal with everything needed to check or redo it.

A deal object has these keys:

==============  ==============================================================
``game``        the layout's game (``custom`` for ``--hands`` layouts)
``layout``      ``{"deck": name, "piles": [{"name", "size", "kind"}]}`` (and
                ``"stack": true`` for a stack)
``hands``       each hand by its pile's name: ``{"N": [codes], ...}``, cards
                sorted in game order (the ``hands`` of a board's object)
``piles``       shared piles that are not hands nor the remainder, by name
                (``{"flop": [codes], ...}``)
``remainder``   the codes left over (stock, pond, kitty…), ``[]`` if none
``number``      the deal number, as a decimal **string** (it exceeds 2**53)
``scheme``      the scheme of ``number`` (a number never travels without it)
``deal``        the PBN deal string, only for bridge-like layouts (the ``deal``
                of a board's object)
``method``      the deal method; ``bits_used``: bits spent on this deal
``algorithm``   algorithm id and version, e.g. ``croupier-deal/2``
``source``      the kind of randomness: ``os-csprng``, ``seeded``, ``entropy``…
==============  ==============================================================

A stack's cards (a stock, a pond, a War pile) are listed in their order, top
first; a set's cards sorted in the game's order.

>>> from croupier.dealing import deal_from_number, make_layout
>>> obj = deal_to_dict(deal_from_number(make_layout("skat"), 0))
>>> obj["hands"]["P1"][:3], obj["remainder"], obj["number"], "deal" in obj
(['AS', 'TS', 'KS'], ['8C', '7C'], '0', False)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from croupier.dealing.deal import Deal
from croupier.formats.deal_text import sorted_hand
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.ranking.partitions import decimal

__all__ = ["deal_to_dict", "deals_to_json", "format_deal_json", "number_to_dict", "pile_codes"]


def pile_codes(deal: Deal, index: int) -> list[str]:
    """The codes of pile ``index``: a stack top first, a set in the game's order.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> pile_codes(deal_from_number(make_layout("euchre"), 23), 4)
    ['9C', 'QC', 'JC', 'TC']
    """
    layout = deal.layout
    cards = deal.piles[index]
    shown = cards if layout.piles[index].ordered else sorted_hand(cards, layout.order)
    return [c.code for c in shown]


def deal_to_dict(deal: Deal, scheme: str = "croupier") -> dict[str, Any]:
    """The JSON object of one deal (see the module docstring for the keys).

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> d = deal_to_dict(deal_from_number(make_layout("bridge"), 0), "pavlicek-1")
    >>> d["number"], d["scheme"], d["deal"][:20]
    ('1', 'pavlicek-1', 'N:AKQJT98765432... .')
    """
    layout = deal.layout
    hands: dict[str, list[str]] = {}
    shared: dict[str, list[str]] = {}
    for i, pile in enumerate(layout.piles):
        codes = pile_codes(deal, i)
        if pile.is_hand:
            hands[pile.name] = codes
        elif pile.name != layout.remainder_name:
            shared[pile.name] = codes
    obj: dict[str, Any] = {
        "game": layout.game,
        "layout": {
            "deck": layout.deck_name,
            "piles": layout.pile_records(),
        },
        "hands": hands,
        "piles": shared,
        "remainder": pile_codes(deal, len(layout.piles) - 1) if layout.remainder_name else [],
        "number": decimal(deal.number_in(scheme)),
        "scheme": scheme,
    }
    if layout.bridge_like:
        obj["deal"] = format_pbn_deal(deal.piles)
    obj.update(
        {
            "method": deal.method,
            "bits_used": round(deal.bits_used, 6),
            "algorithm": deal.algorithm,
            "source": deal.source,
        }
    )
    return obj


def format_deal_json(deal: Deal, scheme: str = "croupier", *, indent: int | None = 2) -> str:
    """One deal as a JSON document.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> print(format_deal_json(deal_from_number(make_layout("war"), 5), indent=None)[:40])
    {"game": "war", "layout": {"deck": "stan
    """
    return json.dumps(deal_to_dict(deal, scheme), indent=indent, ensure_ascii=False)


def deals_to_json(
    deals: Iterable[Deal], scheme: str = "croupier", *, indent: int | None = 2
) -> str:
    """Several deals as one document ``{"deals": [...], "total_bits": ...}``.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> lay = make_layout("war")
    >>> doc = json.loads(deals_to_json([deal_from_number(lay, 0), deal_from_number(lay, 1)]))
    >>> len(doc["deals"]), doc["total_bits"]
    (2, 0.0)
    """
    items = [deal_to_dict(d, scheme) for d in deals]
    total = round(sum(float(d["bits_used"]) for d in items), 6)
    return json.dumps({"deals": items, "total_bits": total}, indent=indent, ensure_ascii=False)


def number_to_dict(number: int, scheme: str, deal: Deal) -> dict[str, Any]:
    """``{"number", "scheme", "deal" or "hands"}``: a deal number and the deal it names
    (``deal``: the PBN deal string of a bridge-like layout; ``hands``: every pile by name).

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> list(number_to_dict(0, "croupier", deal_from_number(make_layout("war"), 0))["hands"])
    ['P1', 'P2']
    >>> sorted(number_to_dict(0, "croupier", deal_from_number(make_layout("bridge"), 0)))
    ['deal', 'number', 'scheme']
    """
    obj: dict[str, Any] = {"number": decimal(number), "scheme": scheme}
    if deal.layout.bridge_like:
        obj["deal"] = format_pbn_deal(deal.piles)
    else:
        obj["hands"] = {p.name: pile_codes(deal, i) for i, p in enumerate(deal.layout.piles)}
    return obj
