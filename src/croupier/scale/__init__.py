"""Work beyond one machine's memory: exact shuffles of files and of Dask collections.

* :func:`shuffle_file_records` (``croupier shuffle --file``): the records of a
  file of any size in the order of the keyed split shuffle
  ``croupier-keyed-split/1``, in memory or through temporary buckets;
* :func:`sample_stream` (``croupier shuffle --file -n K``): a uniform sample
  in one pass, ``croupier-reservoir/1``;
* :func:`shuffle` : a Dask Bag or DataFrame in an exactly uniform global order.

The former file shuffle ``croupier-extshuffle/1`` (64-bit keys) is retired and kept
apart, so that its outputs stay reachable: :mod:`croupier.legacy.extshuffle`.

The names are loaded when first used (``import croupier.scale`` is cheap).

>>> from croupier.scale import KEYED_SPLIT_ALGORITHM_ID, RESERVOIR_ALGORITHM_ID
>>> KEYED_SPLIT_ALGORITHM_ID, RESERVOIR_ALGORITHM_ID
('croupier-keyed-split/1', 'croupier-reservoir/1')
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.scale.dask_shuffle import shuffle
    from croupier.scale.file_sample import RESERVOIR_ALGORITHM_ID, SampleReport, sample_stream
    from croupier.scale.file_shuffle import (
        FileShuffleReport,
        shuffle_file_records,
        shuffle_stream,
    )
    from croupier.scale.keyed_split import KEYED_SPLIT_ALGORITHM_ID, KeyedStreams, keyed_order
    from croupier.scale.records import RecordFormat
    from croupier.scale.workspace import parse_size

_HOMES = {
    "shuffle": "dask_shuffle",
    "RESERVOIR_ALGORITHM_ID": "file_sample",
    "SampleReport": "file_sample",
    "sample_stream": "file_sample",
    "FileShuffleReport": "file_shuffle",
    "shuffle_file_records": "file_shuffle",
    "shuffle_stream": "file_shuffle",
    "KEYED_SPLIT_ALGORITHM_ID": "keyed_split",
    "KeyedStreams": "keyed_split",
    "keyed_order": "keyed_split",
    "RecordFormat": "records",
    "parse_size": "workspace",
}

__all__ = [
    "KEYED_SPLIT_ALGORITHM_ID",
    "RESERVOIR_ALGORITHM_ID",
    "FileShuffleReport",
    "KeyedStreams",
    "RecordFormat",
    "SampleReport",
    "keyed_order",
    "parse_size",
    "sample_stream",
    "shuffle",
    "shuffle_file_records",
    "shuffle_stream",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'croupier.scale' has no attribute {name!r}")
    return getattr(importlib.import_module(f"croupier.scale.{home}"), name)
