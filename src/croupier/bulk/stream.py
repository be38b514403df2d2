"""Where :class:`BulkStream` lived before; it is a source of randomness, now beside the others in
:mod:`croupier.randomness.bulk_stream`, and this module keeps the old imports working.

>>> from croupier.randomness import bulk_stream
>>> BulkStream is bulk_stream.BulkStream
True
"""

from croupier.randomness.bulk_stream import KEY_BYTES, ROWS_PER_BLOCK, STREAM_PURPOSE, BulkStream

__all__ = ["KEY_BYTES", "ROWS_PER_BLOCK", "STREAM_PURPOSE", "BulkStream"]
