# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""A whole PBN deal string to its four sorted hands (the compiled form of
``croupier.formats.pbn_deal._whole_deal_reference``)."""

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM


cdef inline int _rank(Py_UCS4 c) noexcept:
    """The place of a rank letter in AKQJT98765432, or -1."""
    cdef int code = <int>c
    if code == 65:  # A
        return 0
    if code == 75:  # K
        return 1
    if code == 81:  # Q
        return 2
    if code == 74:  # J
        return 3
    if code == 84:  # T
        return 4
    if 50 <= code <= 57:  # 2 to 9: 9 is at 5, 2 at 12
        return 62 - code
    return -1


def whole_deal(str body, int start, tuple deck):
    """The hands (North first) of ``body``: four hands one space apart, each four suits
    (spades first) separated by dots, upper-case ranks in order, 13 cards a hand, every
    card once; hand ``i`` of the text sits at seat ``(start + i) % 4``.  ``deck`` holds the
    52 cards, spades ace first.  ``None`` for any other text."""
    cdef Py_ssize_t i, n = len(body)
    cdef int hand = 0, suit = 0, last = -1, count = 0, r, card, h, k
    cdef unsigned long long seen = 0, bit
    cdef int places[52]
    cdef Py_UCS4 c
    if len(deck) != 52:
        raise ValueError("deck must hold the 52 cards")
    for i in range(n):
        c = body[i]
        if c == 46:  # .
            suit += 1
            if suit > 3:
                return None
            last = -1
        elif c == 32:  # space
            if suit != 3 or count != 13:
                return None
            hand += 1
            if hand > 3:
                return None
            suit = 0
            last = -1
            count = 0
        else:
            r = _rank(c)
            if r <= last or count == 13:  # not a rank, out of order, twice, or a 14th card
                return None
            last = r
            card = 13 * suit + r
            bit = 1ULL << card
            if seen & bit:
                return None
            seen |= bit
            places[13 * hand + count] = card
            count += 1
    if hand != 3 or suit != 3 or count != 13:
        return None
    hands = [None, None, None, None]
    for h in range(4):
        cards = PyTuple_New(13)
        for k in range(13):
            item = deck[places[13 * h + k]]
            Py_INCREF(item)
            PyTuple_SET_ITEM(cards, k, item)
        hands[(start + h) & 3] = cards
    return tuple(hands)
