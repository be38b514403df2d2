"""croupier's own verifiable dealing scheme, ``croupier-boards/1``.

``deal = f(key, event, delayed value, session, board)``: every board is
computed on its own (random access, no need to deal the boards before it),
exactly uniformly over the ``D`` bridge deals, from a domain-separated
SHAKE-256 stream.  The full specification, with test vectors, is
``docs/verifiable-dealing.md``; in short::

    field(x)  = len(x) as 4 bytes big-endian ‖ x
    message   = field("croupier-boards/1") ‖ field(key) ‖ field(event UTF-8)
                ‖ field(delayed value bytes) ‖ session as 4 bytes BE ‖ board as 4 bytes BE
    stream    = SHAKE-256(message), read 12 bytes at a time
    candidate = the 12 bytes as a big-endian integer; the first candidate < D
                is the board's Gödel number (Big Deal's numbering)
    commitment = SHA-256(field("croupier-boards/1 commit") ‖ field(key) ‖ field(event UTF-8))

``croupier-boards/2`` deals every board exactly as ``croupier-boards/1`` and
differs only in its commitment, which also covers the board plan (which
boards each session plays, :class:`~croupier.tournament.board_plan.BoardPlan`)::

    commitment/2 = SHA-256(field("croupier-boards/2 commit") ‖ field(key)
                           ‖ field(event UTF-8) ‖ field(plan.encode()))

The organiser publishes the commitment (and the event name and the rule that
fixes the delayed value) before the event, deals with the secret key once the
delayed value is known, and publishes the key afterwards; anyone can then check
the commitment and regenerate every board.

>>> key = bytes(range(32))
>>> commitment(key, "Example Cup")[:16]
'2492166a4b45f8dc'
>>> board_goedel(key, "Example Cup", b"12345.67", 1, 1) < GOEDEL_MAX
True
>>> plan_commitment(key, "Example Cup", BoardPlan.parse("1:1-16;2:17-32"))[:16]
'c760ad74ed1bacbc'
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from croupier.algorithm_ids import BOARDS, BOARDS_PLAN
from croupier.boards import MAX_BOARD, Board
from croupier.errors import SeedError, VerificationError, excerpt, utf8_bytes
from croupier.randomness import OsRandomSource, RandomSource
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank
from croupier.tournament.board_plan import MAX_SESSION, BoardPlan

__all__ = [
    "ALGORITHM",
    "ALGORITHM_PLAN",
    "KEY_BYTES",
    "board_goedel",
    "commitment",
    "delayed_value_bytes",
    "encode_board_message",
    "make_board",
    "make_boards",
    "new_key",
    "parse_commitment",
    "parse_key",
    "plan_commitment",
    "verify_commitment",
    "verify_plan_commitment",
]

#: Algorithm id and version; part of every hashed message.
ALGORITHM = BOARDS
#: The scheme whose commitment also covers the board plan (same boards as :data:`ALGORITHM`).
ALGORITHM_PLAN = BOARDS_PLAN
#: Length of a secret key (256 bits).
KEY_BYTES = 32
_CANDIDATE_BYTES = 12
_MAX_SESSION = MAX_SESSION


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _text(text: str, name: str) -> bytes:
    """The UTF-8 bytes of ``text`` as the scheme hashes them: every event name and delayed
    value is encoded here.  Text with no UTF-8 encoding is refused, naming ``name=``."""
    return utf8_bytes(text, f"{name}=")


def delayed_value_bytes(text: str) -> bytes:
    """The delayed value as the scheme hashes it: the text's UTF-8 bytes, byte-exact.

    Text that has no UTF-8 encoding -- a lone surrogate, which is how Python
    reads a command-line byte that is not UTF-8 -- is refused with a
    one-line error giving the character's position.

    >>> delayed_value_bytes("15234.56")
    b'15234.56'
    >>> delayed_value_bytes("15234" + chr(0xDCFF))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: delayed_value= is not valid text: character 6 has no UTF-8 ...
    """
    return _text(text, "delayed_value")


def _check_key(key: bytes) -> None:
    if not isinstance(key, bytes) or len(key) != KEY_BYTES:
        got = f"{len(key)} bytes" if isinstance(key, bytes) else type(key).__name__
        raise SeedError(
            f"a {ALGORITHM} key is {KEY_BYTES} bytes (64 hex digits), got {got} (not shown)"
        )


def new_key(source: RandomSource | None = None) -> bytes:
    """A fresh 32-byte secret key from ``source`` (default: the OS CSPRNG).

    >>> len(new_key())
    32
    """
    src = source if source is not None else OsRandomSource()
    value, modulus = src.draw(8 * KEY_BYTES)
    if modulus != 1 << (8 * KEY_BYTES):
        raise SeedError(f"key source {src.describe()} must supply whole bits")
    return value.to_bytes(KEY_BYTES, "big")


def parse_key(text: str) -> bytes:
    """A key from its 64 hex digits (surrounding whitespace ignored).

    The key is secret, so an error says what is wrong with it but never
    quotes it.

    >>> parse_key("00" * 32) == bytes(32)
    True
    >>> parse_key("abc")
    Traceback (most recent call last):
    ...
    croupier.errors.SeedError: bad croupier-boards/1 key (not shown: it is secret): 3 characters...
    """
    cleaned = text.strip()
    if len(cleaned) != 2 * KEY_BYTES:
        raise SeedError(
            f"bad {ALGORITHM} key (not shown: it is secret): {len(cleaned)} characters; "
            f"expected {2 * KEY_BYTES} hex digits"
        )
    if any(c not in "0123456789abcdefABCDEF" for c in cleaned):
        raise SeedError(
            f"bad {ALGORITHM} key (not shown: it is secret): not all hex digits; "
            f"expected {2 * KEY_BYTES} hex digits"
        )
    return bytes.fromhex(cleaned)


def commitment(key: bytes, event: str) -> str:
    """The published commitment to ``key`` for ``event`` (64 hex digits).

    >>> len(commitment(bytes(32), "E"))
    64
    """
    _check_key(key)
    data = _field(f"{ALGORITHM} commit".encode()) + _field(key) + _field(_text(event, "event"))
    return hashlib.sha256(data).hexdigest()


def verify_commitment(key: bytes, event: str, published: str) -> bool:
    """True when ``published`` is the commitment of ``key`` and ``event`` (constant time).

    >>> verify_commitment(bytes(32), "E", commitment(bytes(32), "E"))
    True
    """
    return _same_hex(commitment(key, event), published)


def parse_commitment(text: str) -> str:
    """A published commitment: 64 hex digits (any case, spaces around them allowed).

    Anything else cannot be a commitment, so it is bad input (exit 2 from the
    command line), not a failed verification.

    >>> parse_commitment(" " + "AB" * 32 + " ") == "ab" * 32
    True
    >>> parse_commitment("é" * 64)
    Traceback (most recent call last):
    ...
    croupier.errors.VerificationError: commitment_hex= must be the 64 hex digits ...
    """
    value = text.strip().lower()
    if len(value) != 64 or not all(c in "0123456789abcdef" for c in value):
        raise VerificationError(
            "commitment_hex= must be the 64 hex digits of the published commitment, "
            f"got {excerpt(text)}"
        )
    return value


def _same_hex(computed: str, published: str) -> bool:
    # bytes, not str: compare_digest refuses non-ASCII text with a TypeError
    given = published.strip().lower().encode("utf-8", "surrogatepass")
    return hmac.compare_digest(computed.encode("ascii"), given)


def plan_commitment(key: bytes, event: str, plan: BoardPlan) -> str:
    """The ``croupier-boards/2`` commitment: key, event and board plan (64 hex digits).

    >>> one, two = BoardPlan.parse("1:1-16"), BoardPlan.parse("1:1-15")
    >>> plan_commitment(bytes(32), "E", one) != plan_commitment(bytes(32), "E", two)
    True
    """
    _check_key(key)
    if not isinstance(plan, BoardPlan):
        raise SeedError(f"plan= must be a BoardPlan, got {type(plan).__name__}")
    data = (
        _field(f"{ALGORITHM_PLAN} commit".encode())
        + _field(key)
        + _field(_text(event, "event"))
        + _field(plan.encode())
    )
    return hashlib.sha256(data).hexdigest()


def verify_plan_commitment(key: bytes, event: str, plan: BoardPlan, published: str) -> bool:
    """True when ``published`` is the ``croupier-boards/2`` commitment of key, event and plan.

    >>> plan = BoardPlan.parse("1:16")
    >>> verify_plan_commitment(bytes(32), "E", plan, plan_commitment(bytes(32), "E", plan))
    True
    >>> verify_plan_commitment(bytes(32), "E", plan, "é" * 64)
    False
    """
    return _same_hex(plan_commitment(key, event, plan), published)


def encode_board_message(
    key: bytes, event: str, delayed_value: bytes, session: int, board: int
) -> bytes:
    """The exact SHAKE-256 input for one board (see the module docstring).

    >>> encode_board_message(bytes(32), "E", b"", 1, 2)[-8:].hex()
    '0000000100000002'
    """
    _check_key(key)
    if not isinstance(delayed_value, bytes):
        raise SeedError(f"the delayed value must be bytes, got {type(delayed_value).__name__}")
    if not 1 <= session <= _MAX_SESSION:
        raise SeedError(f"session {session} out of range; expected 1..{_MAX_SESSION}")
    if not 1 <= board <= MAX_BOARD:
        raise SeedError(f"board {board} out of range; expected 1..{MAX_BOARD}")
    return (
        _field(ALGORITHM.encode())
        + _field(key)
        + _field(_text(event, "event"))
        + _field(delayed_value)
        + session.to_bytes(4, "big")
        + board.to_bytes(4, "big")
    )


def board_goedel(key: bytes, event: str, delayed_value: bytes, session: int, board: int) -> int:
    """The Gödel number of one board: first 96-bit SHAKE-256 candidate below ``D``.

    >>> g = board_goedel(bytes(32), "E", b"1", 1, 1)
    >>> g == board_goedel(bytes(32), "E", b"1", 1, 1) and 0 <= g < GOEDEL_MAX
    True
    """
    xof = hashlib.shake_256(encode_board_message(key, event, delayed_value, session, board))
    length = 64 * _CANDIDATE_BYTES
    while True:
        stream = xof.digest(length)
        for i in range(0, length, _CANDIDATE_BYTES):
            candidate = int.from_bytes(stream[i : i + _CANDIDATE_BYTES], "big")
            if candidate < GOEDEL_MAX:
                return candidate
        length *= 2  # pragma: no cover - probability about 2**-104


def make_board(key: bytes, event: str, delayed_value: bytes, session: int, board: int) -> Board:
    """One board of the scheme, with the standard dealer and vulnerability.

    >>> b = make_board(bytes(32), "E", b"1", 1, 5)
    >>> b.number, b.dealer, b.vulnerable, sum(len(h) for h in b.hands)
    (5, <Seat.NORTH: 'N'>, <Vulnerability.NS: 'NS'>, 52)
    """
    g = board_goedel(key, event, delayed_value, session, board)
    return Board.standard(board, goedel_unrank(g), goedel=g)


def make_boards(
    key: bytes, event: str, delayed_value: bytes, session: int, boards: Iterable[int]
) -> list[Board]:
    """The boards ``boards`` of one session (each computed independently).

    An empty or blank ``delayed_value`` is refused: a value everybody knows in
    advance proves nothing.  (:func:`make_board` and :func:`board_goedel`
    compute any value, as the specification's test vectors do.)

    >>> [b.number for b in make_boards(bytes(32), "E", b"1", 2, [3, 1])]
    [3, 1]
    >>> make_boards(bytes(32), "E", b" ", 1, [1])
    Traceback (most recent call last):
    ...
    croupier.errors.SeedError: delayed_value= is empty or blank: ...
    """
    if not isinstance(delayed_value, bytes) or not delayed_value.decode("utf-8", "replace").strip():
        raise SeedError(
            "delayed_value= is empty or blank: a value everybody knows in advance proves "
            "nothing; give the value announced before the event, known only after the commitment"
        )
    return [make_board(key, event, delayed_value, session, b) for b in boards]
