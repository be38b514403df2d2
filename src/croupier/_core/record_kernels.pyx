# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Records of a buffer, compiled: separators counted and found, records gathered in order.

The plain specifications are numpy's (``croupier.scale.records``: a comparison
and ``flatnonzero`` for the separators, fixed-size items and copies by length
for the gather); the tests compare the two.  Every kernel releases the
interpreter lock, so the file shuffle gathers one slice of its output while it
writes the one before.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t


cdef extern from "record_kernels.h" nogil:
    int64_t croupier_count_byte(const uint8_t *data, int64_t n, uint8_t sep)
    int64_t croupier_separator_span(const uint8_t *data, int64_t n, uint8_t sep, int64_t *first,
                                    int64_t *last)
    int64_t croupier_byte_ends_int32_t(const uint8_t *data, int64_t n, uint8_t sep,
                                       int64_t offset, int32_t *ends, int64_t room)
    int64_t croupier_byte_ends_int64_t(const uint8_t *data, int64_t n, uint8_t sep,
                                       int64_t offset, int64_t *ends, int64_t room)
    int64_t croupier_gather_int32_t(const uint8_t *data, const int32_t *starts,
                                    const uint32_t *lengths, int64_t records, int64_t size,
                                    const int64_t *order, int64_t a, int64_t b, uint8_t *out,
                                    int64_t room)
    int64_t croupier_gather_int64_t(const uint8_t *data, const int64_t *starts,
                                    const uint32_t *lengths, int64_t records, int64_t size,
                                    const int64_t *order, int64_t a, int64_t b, uint8_t *out,
                                    int64_t room)
    int64_t croupier_gather_bounds_int32_t(const uint8_t *data, const int32_t *bounds,
                                           int64_t records, int64_t size, const int64_t *order,
                                           int64_t a, int64_t b, uint8_t *out, int64_t room)
    int64_t croupier_gather_bounds_int64_t(const uint8_t *data, const int64_t *bounds,
                                           int64_t records, int64_t size, const int64_t *order,
                                           int64_t a, int64_t b, uint8_t *out, int64_t room)
    int64_t croupier_cut_slices(const uint32_t *lengths, int64_t records, const int64_t *order,
                                int64_t a, int64_t b, int64_t slice_bytes, int64_t long_record,
                                int64_t *ends, int64_t *bytes)


def count_byte(const uint8_t[::1] data, uint8_t separator):
    """How many bytes of ``data`` are ``separator``."""
    cdef int64_t got = 0
    if data.shape[0] == 0:
        return 0
    with nogil:
        got = croupier_count_byte(&data[0], data.shape[0], separator)
    return got


def separator_span(const uint8_t[::1] data, uint8_t separator):
    """How many bytes of ``data`` are ``separator``, and the places of the first and the last
    (``-1`` when there is none)."""
    cdef int64_t got = 0, first = -1, last = -1
    if data.shape[0] == 0:
        return 0, -1, -1
    with nogil:
        got = croupier_separator_span(&data[0], data.shape[0], separator, &first, &last)
    return got, first, last


cdef _gather_failed(int64_t got, Py_ssize_t room):
    if got == -1:
        raise ValueError(f"the records do not fit the {room} bytes given")
    raise ValueError("a record lies outside the data")


ctypedef fused place_t:
    int32_t
    int64_t


def byte_ends(const uint8_t[::1] data, uint8_t separator, int64_t offset, place_t[::1] ends):
    """One past each ``separator`` of ``data``, plus ``offset``, into ``ends`` (32- or 64-bit
    places): how many.  ``ends`` must have room for all of them (:func:`count_byte`)."""
    cdef int64_t got = 0
    cdef place_t *room = &ends[0] if ends.shape[0] else NULL
    if data.shape[0] == 0:
        return 0
    if place_t is int32_t and (offset < 0 or offset + data.shape[0] >= 2**31):
        raise ValueError("32-bit ends take offsets below 2**31")
    with nogil:
        if place_t is int32_t:
            got = croupier_byte_ends_int32_t(&data[0], data.shape[0], separator, offset, room,
                                             ends.shape[0])
        else:
            got = croupier_byte_ends_int64_t(&data[0], data.shape[0], separator, offset, room,
                                             ends.shape[0])
    if got < 0:
        raise ValueError(f"more separators than the {ends.shape[0]} places given")
    return got


def gather(const uint8_t[::1] data, const place_t[::1] starts, const uint32_t[::1] lengths,
           const int64_t[::1] order, Py_ssize_t a, Py_ssize_t b, uint8_t[::1] out):
    """Records ``order[a:b]`` (record ``i``: ``data[starts[i]:][:lengths[i]]``, 32- or 64-bit
    starts) one after the other into ``out``: the bytes written."""
    cdef int64_t got = 0
    if starts.shape[0] != lengths.shape[0] or not 0 <= a <= b <= order.shape[0]:
        raise ValueError("gather takes starts and lengths of one length, and a <= b <= len(order)")
    if a == b:
        return 0
    if data.shape[0] == 0 or out.shape[0] == 0:
        _gather_failed(-2 if data.shape[0] == 0 else -1, out.shape[0])
    with nogil:
        if place_t is int32_t:
            got = croupier_gather_int32_t(&data[0], &starts[0], &lengths[0], starts.shape[0],
                                          data.shape[0], &order[0], a, b, &out[0],
                                          out.shape[0])
        else:
            got = croupier_gather_int64_t(&data[0], &starts[0], &lengths[0], starts.shape[0],
                                          data.shape[0], &order[0], a, b, &out[0],
                                          out.shape[0])
    if got < 0:
        _gather_failed(got, out.shape[0])
    return got


def gather_bounds(const uint8_t[::1] data, const place_t[::1] bounds,
                  const int64_t[::1] order, Py_ssize_t a, Py_ssize_t b, uint8_t[::1] out):
    """Records ``order[a:b]`` of records that lie end to end (record ``i``:
    ``data[bounds[i]:bounds[i + 1]]``, 32- or 64-bit bounds, one more than the records)
    one after the other into ``out``: the bytes written."""
    cdef int64_t got = 0
    if bounds.shape[0] < 1 or not 0 <= a <= b <= order.shape[0]:
        raise ValueError("gather_bounds takes one bound more than records, and a <= b <= len(order)")
    if a == b:
        return 0
    if data.shape[0] == 0 or out.shape[0] == 0:
        _gather_failed(-2 if data.shape[0] == 0 else -1, out.shape[0])
    with nogil:
        if place_t is int32_t:
            got = croupier_gather_bounds_int32_t(&data[0], &bounds[0], bounds.shape[0] - 1,
                                                 data.shape[0], &order[0], a, b, &out[0],
                                                 out.shape[0])
        else:
            got = croupier_gather_bounds_int64_t(&data[0], &bounds[0], bounds.shape[0] - 1,
                                                 data.shape[0], &order[0], a, b, &out[0],
                                                 out.shape[0])
    if got < 0:
        _gather_failed(got, out.shape[0])
    return got


def squeeze_rows(const uint8_t[:, ::1] rows, uint8_t pad, uint8_t[::1] out, int64_t[::1] ends):
    """The bytes of ``rows`` that are not ``pad``, row after row, into ``out``; row ``i``'s
    end in ``out`` into ``ends[i]``.  Returns the bytes written (room: every byte)."""
    cdef Py_ssize_t n = rows.shape[0], width = rows.shape[1], i, j
    cdef int64_t at = 0
    cdef uint8_t b
    if ends.shape[0] != n or out.shape[0] < n * width:
        raise ValueError("squeeze_rows takes an end a row and room for every byte")
    with nogil:
        for i in range(n):
            for j in range(width):
                b = rows[i, j]
                out[at] = b
                at += b != pad
            ends[i] = at
    return at


def cut_slices(const uint32_t[::1] lengths, const int64_t[::1] order, Py_ssize_t a,
               Py_ssize_t b, int64_t slice_bytes, int64_t long_record, int64_t[::1] ends,
               int64_t[::1] nbytes):
    """Slices of ``order[a:b]`` to write at once: about ``slice_bytes`` each, and a record of
    ``long_record`` bytes or more alone.  Slice ``j`` ends at place ``ends[j]`` and holds
    ``nbytes[j]`` bytes (room for ``b - a`` of them); returns how many."""
    cdef int64_t made = 0
    if not 0 <= a <= b <= order.shape[0] or ends.shape[0] < b - a or nbytes.shape[0] < b - a:
        raise ValueError("cut_slices takes a <= b <= len(order) and room for b - a slices")
    if a == b:
        return 0
    if lengths.shape[0] == 0:
        raise ValueError("a record lies outside the lengths")
    with nogil:
        made = croupier_cut_slices(&lengths[0], lengths.shape[0], &order[0], a, b, slice_bytes,
                                   long_record, &ends[0], &nbytes[0])
    if made < 0:
        raise ValueError("a record lies outside the lengths")
    return made


cdef extern from "unistd.h" nogil:
    ssize_t c_write "write" (int fd, const void *buf, size_t count)

cdef extern from "errno.h" nogil:
    int errno
    int EINTR


def write_pieces(const int32_t[::1] fds, const uint8_t[::1] data, const int64_t[::1] bounds):
    """Write ``data[bounds[i]:bounds[i + 1]]`` to the file descriptor ``fds[i]``, for every
    ``i`` in turn, without the interpreter lock (a partial write goes on; ``EINTR`` retries).

    Returns ``(-1, 0)`` when every piece was written, else the failing piece's index
    and the ``errno`` of its failure (the pieces after it are not written).
    """
    cdef Py_ssize_t i, pieces = fds.shape[0]
    cdef int64_t at, end
    cdef ssize_t got
    cdef int failed = 0
    if bounds.shape[0] != pieces + 1 or (pieces and bounds[pieces] > data.shape[0]):
        raise ValueError("write_pieces takes one more bound than pieces, within the data")
    with nogil:
        for i in range(pieces):
            at = bounds[i]
            end = bounds[i + 1]
            while at < end:
                got = c_write(fds[i], &data[0] + at, <size_t>(end - at))
                if got < 0:
                    if errno == EINTR:
                        continue
                    failed = errno
                    break
                at += got
            if failed:
                break
    if failed:
        return i, failed
    return -1, 0
