"""Deals as CSV: one row per deal, one column per pile (cards separated by spaces).

Columns: ``deal`` (1-based row number), ``number``, ``scheme``, then one column
per pile of the layout (hands, shared piles, remainder) and ``method``,
``bits_used``, ``algorithm``, ``source``.

>>> from croupier.dealing import deal_from_number, make_layout
>>> print(format_deals_csv([deal_from_number(make_layout("gin"), 0)]).splitlines()[0])
deal,number,scheme,P1,P2,upcard,stock,method,bits_used,algorithm,source
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from croupier.dealing.deal import Deal
from croupier.errors import CroupierError
from croupier.formats.deal_text import sorted_hand
from croupier.ranking.partitions import decimal

__all__ = ["format_deals_csv"]


def format_deals_csv(deals: Iterable[Deal], scheme: str = "croupier") -> str:
    """All ``deals`` (of one layout) as CSV text with a header row.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> text = format_deals_csv([deal_from_number(make_layout("war"), 0)])
    >>> text.splitlines()[1][:40]
    '1,0,croupier,AS KS QS JS TS 9S 8S 7S 6S '
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    layout = None
    for i, deal in enumerate(deals, start=1):
        if layout is None:
            layout = deal.layout
            writer.writerow(
                ["deal", "number", "scheme"]
                + [p.name for p in layout.piles]
                + ["method", "bits_used", "algorithm", "source"]
            )
        elif deal.layout != layout:
            raise CroupierError("all deals in one CSV must share a layout")
        piles = [" ".join(c.code for c in sorted_hand(p, layout.order)) for p in deal.piles]
        head = [str(i), decimal(deal.number_in(scheme)), scheme]
        tail = [deal.method, f"{deal.bits_used:.6g}", deal.algorithm, deal.source]
        writer.writerow(head + piles + tail)
    return out.getvalue()
