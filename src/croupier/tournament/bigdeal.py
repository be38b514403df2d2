"""Big Deal 2.0 compatibility: regenerate ``bigdealx`` deals from seed and owner.

Big Deal turns a 20-byte seed and an owner identification into a stream of
Gödel numbers (see :mod:`croupier.ranking.bigdeal`):

1. ``oh = RIPEMD160(owner)``;
2. a 32-bit counter ``k`` starts at 0 and is shared by all boards of a run;
3. for each board, repeat ``k += 1``, ``h = RIPEMD160(LE32(k) ‖ seed ‖ oh)``,
   ``cand = int(h[0:12], big-endian)`` until ``cand < D``; that ``cand`` is
   the board's Gödel number.

The board number never enters the hash, so boards 17..32 of a run equal
boards 1..16 of a run with the same seed and owner, only labelled differently.
Seeds come from entropy strings (``RIPEMD160`` of their concatenation, like
repeated ``-e``) or from 40 hex digits (``-h``).

>>> seed = seed_from_entropy(["hello"])
>>> seed.hex()
'108f07b8382412612c048d07d13f814118445acd'
>>> boards = bigdeal_boards(seed, b"test", range(1, 3))
>>> [(b.number, b.dealer, b.vulnerable, b.goedel) for b in boards][0]
(1, <Seat.NORTH: 'N'>, <Vulnerability.NONE: 'None'>, 8663748777806362500730157876)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from croupier.algorithm_ids import BIGDEAL
from croupier.boards import Board
from croupier.errors import MissingExtraError, SeedError, utf8_bytes
from croupier.randomness import seed_strength
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank

__all__ = [
    "BIGDEAL_ALGORITHM_ID",
    "BIGDEAL_DEFAULT_OWNER",
    "WEAK_ENTROPY_BITS",
    "BigDealStream",
    "bigdeal_boards",
    "entropy_warning",
    "ripemd160",
    "seed_from_entropy",
    "seed_from_hex",
]

#: The algorithm id of boards dealt as Big Deal 2.0 deals them (the ``"algorithm"`` of JSON).
BIGDEAL_ALGORITHM_ID = BIGDEAL
#: The owner Big Deal uses when ``.bigdealrc`` was never edited.
BIGDEAL_DEFAULT_OWNER = "Identification of owner or tournament"

_CANDIDATE_BYTES = 12
#: Entropy strings that a conservative estimate puts below this many bits get a warning.
WEAK_ENTROPY_BITS = 64


def ripemd160(data: bytes) -> bytes:
    """RIPEMD-160 of ``data``: hashlib (OpenSSL) when it has it, else pycryptodome.

    >>> ripemd160(b"").hex()
    '9c1185a5c5e9fc54612808977ee8f548b2258d31'
    """
    try:
        return hashlib.new("ripemd160", data).digest()
    except ValueError:
        pass
    try:
        from Crypto.Hash import RIPEMD160  # pycryptodome
    except ImportError as exc:
        raise MissingExtraError(
            "Big Deal hashing needs RIPEMD-160 (missing from this OpenSSL) or pycryptodome:"
            " pip install 'croupier[ripemd]'"
        ) from exc
    digest: Any = RIPEMD160.new(data).digest()
    return bytes(digest)


def _as_bytes(value: str | bytes, what: str) -> bytes:
    """Bytes as they are; text as UTF-8, with command-line bytes that are not UTF-8 restored
    (as ``bigdealx`` hashes them); a lone surrogate that is no such byte is refused,
    naming ``what`` and never quoting the text (entropy strings are secret)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return utf8_bytes(value, what, escapes=True, error=SeedError)
    raise SeedError(f"{what} must be text or bytes, got {type(value).__name__}")


def _entropy_bytes(parts: Iterable[str | bytes]) -> bytes:
    """The entropy strings joined as bytes; errors name the string by its number."""
    return b"".join(_as_bytes(p, f"entropy string {i}") for i, p in enumerate(parts, 1))


def seed_from_entropy(parts: Iterable[str | bytes]) -> bytes:
    """The seed of ``bigdealx -e P1 -e P2 …``: RIPEMD-160 of the parts concatenated.

    Text is encoded as UTF-8 (undecodable command-line bytes, held as surrogate
    escapes, are restored byte for byte).  ``["hel", "lo"]`` gives the same seed
    as ``["hello"]``.

    >>> seed_from_entropy(["hel", "lo"]) == seed_from_entropy(["hello"])
    True
    """
    buffer = _entropy_bytes(parts)
    return ripemd160(buffer)


def entropy_warning(parts: Iterable[str | bytes]) -> str | None:
    """A warning when entropy strings are empty or guessable, else ``None``.

    Big Deal's seed is a hash of the strings, so whoever can guess them can
    deal the same boards.  The strength is croupier's conservative seed estimate
    (:func:`croupier.randomness.seed_strength`: character classes, repetition,
    sequences, common words); under :data:`WEAK_ENTROPY_BITS` bits is weak.

    >>> entropy_warning([""])
    'the entropy is empty: every run deals the same boards, and anyone can deal them too'
    >>> entropy_warning(["hello"])
    'the entropy strings are guessable (at most about 7 bits by a conservative estimate; ...'
    >>> entropy_warning(["Xq7#vR2!mK9$pL4@wN8%tB3&zH6*cJ1^"]) is None
    True
    """
    buffer = _entropy_bytes(parts)
    if not buffer:
        return "the entropy is empty: every run deals the same boards, and anyone can deal them too"
    strength = seed_strength(buffer)
    if strength.bits >= WEAK_ENTROPY_BITS:
        return None
    return (
        f"the entropy strings are guessable (at most about {round(strength.bits)} bits by a "
        f"conservative estimate; {strength.reason}): anyone who guesses them can deal the same "
        "boards; add a long random string nobody knows"
    )


def seed_from_hex(text: str) -> bytes:
    """The seed of ``bigdealx -h HEX40``: exactly 40 hex digits, any case.

    The hash is the secret seed, so an error never quotes it.

    >>> seed_from_hex("0123456789abcdef0123456789ABCDEF01234567").hex()
    '0123456789abcdef0123456789abcdef01234567'
    >>> seed_from_hex("abc")
    Traceback (most recent call last):
    ...
    croupier.errors.SeedError: bad Big Deal hash (not shown: it is the secret seed): 3 characters...
    """
    cleaned = text.strip() if isinstance(text, str) else ""
    if len(cleaned) != 40 or any(c not in "0123456789abcdefABCDEF" for c in cleaned):
        what = f"{len(cleaned)} characters" if len(cleaned) != 40 else "not all hex digits"
        raise SeedError(
            f"bad Big Deal hash (not shown: it is the secret seed): {what}; expected exactly "
            "40 hex digits (a 160-bit seed)"
        )
    return bytes.fromhex(cleaned)


class BigDealStream:
    """The stream of Gödel numbers ``bigdealx`` draws for one seed and owner.

    ``counter`` is the number of hashes computed so far (Big Deal's ``k``).

    >>> stream = BigDealStream(bytes(20), "Identification of owner or tournament")
    >>> stream.next_goedel(), stream.counter
    (34386818204564783131225660893, 2)
    """

    __slots__ = ("_owner_hash", "_seed", "counter")

    def __init__(self, seed: bytes, owner: str | bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 20:
            got = f"{len(seed)} bytes" if isinstance(seed, bytes) else type(seed).__name__
            raise SeedError(f"a Big Deal seed is 20 bytes, got {got} (not shown: it is secret)")
        self._seed = seed
        self._owner_hash = ripemd160(_as_bytes(owner, "owner="))
        self.counter = 0

    @property
    def owner_hash(self) -> bytes:
        """``RIPEMD160(owner)``, the last 20 bytes of every hashed message."""
        return self._owner_hash

    def next_goedel(self) -> int:
        """The next accepted Gödel number (rejecting candidates ``>= D``)."""
        while True:
            self.counter += 1
            if self.counter >= 1 << 32:  # pragma: no cover - needs ~2^32 hashes
                raise SeedError("Big Deal's 32-bit counter is exhausted for this seed")
            message = self.counter.to_bytes(4, "little") + self._seed + self._owner_hash
            candidate = int.from_bytes(ripemd160(message)[:_CANDIDATE_BYTES], "big")
            if candidate < GOEDEL_MAX:
                return candidate

    def __iter__(self) -> Iterator[int]:
        while True:
            yield self.next_goedel()


def bigdeal_boards(seed: bytes, owner: str | bytes, boards: Sequence[int]) -> list[Board]:
    """The boards ``bigdealx`` makes for ``seed``, ``owner`` and board numbers ``boards``.

    Boards are dealt in the order given (Big Deal deals a range low to high);
    the i-th board gets the i-th accepted Gödel number of the stream.

    >>> [b.number for b in bigdeal_boards(bytes(20), "x", range(17, 20))]
    [17, 18, 19]
    """
    stream = BigDealStream(seed, owner)
    result: list[Board] = []
    for number in boards:
        g = stream.next_goedel()
        result.append(Board.standard(number, goedel_unrank(g), goedel=g))
    return result
