"""Deals as CSV: one row per deal, one column per pile (cards separated by spaces).

Columns: ``deal`` (1-based row number), ``number``, ``scheme``, then one column
per pile of the layout (hands, shared piles, remainder; a stack's cards top
first) and ``method``, ``bits_used``, ``algorithm``, ``source``.

>>> from croupier.dealing import deal_from_number, make_layout
>>> print(format_deals_csv([deal_from_number(make_layout("gin"), 0)]).splitlines()[0])
deal,number,scheme,P1,P2,upcard,stock,method,bits_used,algorithm,source
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable, Iterator

from croupier.dealing.deal import Deal
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError
from croupier.formats.deal_json import pile_codes
from croupier.ranking.partitions import decimal

__all__ = ["csv_header", "csv_rows", "format_deals_csv"]


def csv_header(layout: Layout) -> list[str]:
    """The header row of ``layout``'s deals.

    >>> from croupier.dealing import make_layout
    >>> csv_header(make_layout("war"))[:4]
    ['deal', 'number', 'scheme', 'P1']
    """
    names = [p.name for p in layout.piles]
    return ["deal", "number", "scheme", *names, "method", "bits_used", "algorithm", "source"]


def csv_rows(deals: Iterable[Deal], scheme: str = "croupier", *, first: int = 1) -> Iterator[str]:
    """Each deal as one CSV row (with its line end), numbered from ``first``; no header.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> next(csv_rows([deal_from_number(make_layout("war"), 0)], first=7))[:12]
    '7,0,croupier'
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    layout = None
    for i, deal in enumerate(deals, start=first):
        if layout is None:
            layout = deal.layout
        elif deal.layout != layout:
            raise CroupierError("all deals in one CSV must share a layout")
        piles = [" ".join(pile_codes(deal, i)) for i in range(len(deal.piles))]
        head = [str(i), decimal(deal.number_in(scheme)), scheme]
        tail = [deal.method, f"{deal.bits_used:.6g}", deal.algorithm, deal.source]
        writer.writerow(head + piles + tail)
        yield out.getvalue()
        out.seek(0)
        out.truncate()


def format_deals_csv(deals: Iterable[Deal], scheme: str = "croupier") -> str:
    """All ``deals`` (of one layout) as CSV text with a header row.

    >>> from croupier.dealing import deal_from_number, make_layout
    >>> text = format_deals_csv([deal_from_number(make_layout("war"), 0)])
    >>> text.splitlines()[1][:40]
    '1,0,croupier,AS KS QS JS TS 9S 8S 7S 6S '
    """
    it = iter(deals)
    first = next(it, None)
    if first is None:
        return ""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(csv_header(first.layout))
    rows = csv_rows(itertools.chain([first], it), scheme)
    return out.getvalue() + "".join(rows)
