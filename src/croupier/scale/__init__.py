"""Work beyond one machine's memory: exact out-of-core shuffles of files.

>>> from croupier.scale import EXTSHUFFLE_ALGORITHM_ID
>>> EXTSHUFFLE_ALGORITHM_ID
'croupier-extshuffle/1'
"""

from croupier.scale.external_shuffle import (
    EXTSHUFFLE_ALGORITHM_ID,
    ShuffleReport,
    shuffle_file,
    shuffle_records,
)
from croupier.scale.shuffle_keys import KeyStream
from croupier.scale.workspace import parse_size

__all__ = [
    "EXTSHUFFLE_ALGORITHM_ID",
    "KeyStream",
    "ShuffleReport",
    "parse_size",
    "shuffle_file",
    "shuffle_records",
]
