"""Bulk dealing: deal arrays, exact vectorised generation (``croupier-bulk/1``).

Hand evaluation over deal arrays is in :mod:`croupier.bulk.evaluate`, the
streaming writers (``dealer``'s one-line layout, PBN, JSON lines, ``.npy``,
``.npz``) in :mod:`croupier.bulk.writers`; docs/bulk.md is the guide.

>>> from croupier.bulk import deal_array
>>> deals = deal_array(100_000, "bridge", seed="demo")
>>> deals.piles.shape, deals.suit_lengths().shape
((100000, 52), (100000, 4, 4))
"""

from croupier.bulk.array import DealArray, DealArrayError
from croupier.bulk.generate import BULK_ALGORITHM_ID, BulkDealer, deal_array
from croupier.randomness.bulk_stream import BulkStream

__all__ = [
    "BULK_ALGORITHM_ID",
    "BulkDealer",
    "BulkStream",
    "DealArray",
    "DealArrayError",
    "deal_array",
]
