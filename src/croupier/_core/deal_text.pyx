# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Deal text: a whole PBN deal string to its four sorted hands (the compiled form of
``croupier.formats.pbn_deal._whole_deal_reference``), and the hands of many deals
written as text (``croupier.bulk.writers.text._bridge_hands_reference``)."""

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint8_t, uint16_t, uint64_t

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


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


cdef tuple _hands(int *places, int start, tuple deck):
    """Four hands of 13 cards, ``places[13 * h:13 * h + 13]`` of ``deck`` for hand ``h``,
    which sits at seat ``(start + h) % 4``."""
    cdef int h, k
    hands = [None, None, None, None]
    for h in range(4):
        cards = PyTuple_New(13)
        for k in range(13):
            item = deck[places[13 * h + k]]
            Py_INCREF(item)
            PyTuple_SET_ITEM(cards, k, item)
        hands[(start + h) & 3] = cards
    return tuple(hands)


def whole_deal(str body, int start, tuple deck):
    """The hands (North first) of ``body``: four hands one space apart, each four suits
    (spades first) separated by dots, upper-case ranks in order, 13 cards a hand, every
    card once; hand ``i`` of the text sits at seat ``(start + i) % 4``.  ``deck`` holds the
    52 cards, spades ace first.  ``None`` for any other text."""
    cdef Py_ssize_t i, n = len(body)
    cdef int hand = 0, suit = 0, last = -1, count = 0, r, card
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
    return _hands(places, start, deck)


cdef inline int _mark(Py_UCS4 c, int suit, int hand, int *count, int *last,
                      unsigned long long *seen, int *places) noexcept:
    """Take the rank ``c`` of ``suit`` into ``hand``: 1 done, 0 not a rank, -1 refused."""
    cdef int r = _rank(c), card
    cdef unsigned long long bit
    if r < 0:
        return 0
    if r <= last[0] or count[0] == 13:
        return -1
    last[0] = r
    card = 13 * suit + r
    bit = 1ULL << card
    if seen[0] & bit:
        return -1
    seen[0] |= bit
    places[13 * hand + count[0]] = card
    count[0] += 1
    return 1


def whole_md(str md, tuple deck):
    """The dealer digit (0: none) and hands (North first) of a LIN ``md`` value of three or
    four whole hands: an optional digit 1-4, then hands ``S..H..D..C..`` (upper-case ranks
    in order) South, West, North, East, comma-separated, the fourth left out after the
    third comma (it holds the 13 cards left); 13 cards a hand, every card once.  ``deck``
    holds the 52 cards, spades ace first.  ``None`` for any other value."""
    cdef Py_ssize_t i = 0, n = len(md)
    cdef int digit = 0, hand = 0, suit, count = 0, last, done, k, card
    cdef unsigned long long seen = 0
    cdef int places[52]
    cdef int code
    if len(deck) != 52:
        raise ValueError("deck must hold the 52 cards")
    if n and 49 <= <int>md[0] <= 52:
        digit = <int>md[0] - 48
        i = 1
    while hand < 4:
        if hand == 3 and i == n:
            break  # three hands: the fourth holds the cards left
        for suit in range(4):
            code = <int>md[i] if i < n else 0
            if code != (83, 72, 68, 67)[suit]:  # S H D C
                return None
            i += 1
            last = -1
            while i < n:
                done = _mark(md[i], suit, hand, &count, &last, &seen, places)
                if done < 0:
                    return None
                if done == 0:
                    break
                i += 1
        if count != 13:
            return None
        hand += 1
        count = 0
        if hand < 4:
            if i >= n or <int>md[i] != 44:  # ,
                return None
            i += 1
    if i != n:
        return None
    if hand == 3:  # the fourth hand: the cards not given, in deck order
        k = 0
        for card in range(52):
            if not seen & (1ULL << card):
                places[39 + k] = card
                k += 1
    return digit, _hands(places, 2, deck)  # South first


def hand_text(const uint8_t[:, ::1] piles, const uint16_t[::1] card_keys,
              const uint16_t[::1] dot_keys, const uint8_t[::1] letters, uint8_t[:, ::1] out):
    """Each deal's sort keys in rising order, written as ``letters`` (one byte a key).

    Card ``c`` of a deal in pile ``p`` has key ``64 * p + card_keys[c]``, and
    ``dot_keys`` (keys of their own, the marks between suits) come with every deal;
    row ``i`` of ``out`` is ``letters[k]`` for the keys ``k`` of deal ``i`` in rising
    order: the same as sorting them, with no sort (each pile's keys are the bits of a
    64-bit word, read from the lowest).  Piles 0 to 3; the card keys below 64 and
    distinct, the dot keys distinct and none of them a card's key in its pile.
    """
    cdef Py_ssize_t n = piles.shape[0], cards = piles.shape[1], i, c, at
    cdef int p, b
    cdef uint64_t words[4]
    cdef uint64_t dots[4]
    cdef uint64_t seen = 0, word
    cdef uint16_t key
    if card_keys.shape[0] != cards or out.shape[0] != n or letters.shape[0] < 256:
        raise ValueError("hand_text takes a key a card, a row a deal and 256 letters")
    if out.shape[1] != cards + dot_keys.shape[0]:
        raise ValueError(f"hand_text writes {cards + dot_keys.shape[0]} bytes a deal, "
                         f"not {out.shape[1]}")
    for p in range(4):
        dots[p] = 0
    for c in range(dot_keys.shape[0]):
        key = dot_keys[c]
        if key >= 256 or dots[key >> 6] >> (key & 63) & 1:
            raise ValueError("the dot keys are distinct and below 256")
        dots[key >> 6] |= (<uint64_t>1) << (key & 63)
    for c in range(cards):
        key = card_keys[c]
        if key >= 64 or seen >> key & 1:
            raise ValueError("the card keys are distinct and below 64")
        seen |= (<uint64_t>1) << key
        for p in range(4):
            if dots[p] >> key & 1:
                raise ValueError("a card's key is a dot's key")
    with nogil:
        for i in range(n):
            words[0] = dots[0]
            words[1] = dots[1]
            words[2] = dots[2]
            words[3] = dots[3]
            for c in range(cards):
                p = piles[i, c]
                if p > 3:
                    break
                words[p] |= (<uint64_t>1) << card_keys[c]
            else:
                at = 0
                for p in range(4):
                    word = words[p]
                    while word:
                        b = __builtin_ctzll(word)
                        out[i, at] = letters[64 * p + b]
                        at += 1
                        word &= word - 1
                continue
            with gil:
                raise ValueError(f"deal {i} has a card in pile {piles[i, c]}; hand_text takes piles 0 to 3")
