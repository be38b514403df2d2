"""Retired algorithms, kept apart so that the outputs made with them regenerate.

An algorithm id is frozen once published (docs/reproducibility.md): when croupier
moves on, the old id's code moves here, unchanged, rather than living beside the
current one (as numpy keeps ``RandomState`` and its legacy C apart from
``Generator``).  Nothing current imports this package but the command line, which
still offers each retired algorithm by an explicit option.

* :mod:`croupier.legacy.extshuffle`: ``croupier-extshuffle/1``, the former file
  shuffle (a 64-bit key a record, through temporary buckets), ``croupier shuffle
  --file --method keys``; :mod:`croupier.legacy.extshuffle_keys`, its key stream.
"""
