"""SquareDeal 2.x events: ``.sqd``/``.sqk`` files, key commitment and session deals.

SquareDeal lets an organiser prove the deals were not chosen.  Before the
event the organiser publishes the ``.sqd`` description, which holds ``KH``, the
SHA-256 of the secret key file ``.sqk``.  After the event has started a value
nobody could know in advance (``DV``, for example a stock index close) is
added; the sessions are dealt by Big Deal from key and ``DV``; afterwards the
keys are published, and anyone can check ``KH`` and regenerate every board.

Per session ``s`` of phase ``p`` (key ``KeyId(p, s)``, written ``p,s`` in the
``.sqk`` file, or ``KeyId(p, 0)`` for a phase whose number of sessions is 0, a
"variable" phase):

* ``L`` and ``R`` are the first and second half of the key;
* ``B`` is the standard base64 of the ``DV`` bytes exactly as stored;
* Big Deal runs with owner ``L`` and entropy ``R + B + "original"`` (or
  ``"reserve"``), plus ``"ses" + s`` in a variable phase.

>>> event = SquareDealEvent("Club pairs", phases=[Phase.parse("2:1-16,17-32:CP#:Session #")])
>>> event.phases[0].boards_for_session(2)
range(17, 33)
>>> session_file_name("OPRR##", 1), session_file_name("R16#", 1, reserve=True)
('OPRR01', 'R161reserve')
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar, NamedTuple

from croupier.algorithm_ids import SQUAREDEAL
from croupier.boards import MAX_BOARD, Board, BoardRangeError, parse_board_list
from croupier.errors import FileFormatError, bounded_decimal, excerpt, masked_excerpt, utf8_bytes
from croupier.randomness import Chooser, OsRandomSource, RandomSource, UniformSampler
from croupier.tournament.bigdeal import bigdeal_boards, seed_from_entropy

__all__ = [
    "KEY_ALPHABET",
    "KEY_LENGTH",
    "MAX_DEAL_BOARDS",
    "MAX_EVENT_FILE_BYTES",
    "MAX_EVENT_SESSIONS",
    "MAX_KEY_LENGTH",
    "MAX_PHASES",
    "MAX_SESSIONS",
    "SQUAREDEAL_ALGORITHM_ID",
    "BoardSpec",
    "KeyId",
    "Phase",
    "SessionRef",
    "SquareDealError",
    "SquareDealEvent",
    "SquareDealKeys",
    "format_sqd",
    "format_sqk",
    "key_hash",
    "make_keys",
    "match_session_file",
    "parse_session_spec",
    "parse_sqd",
    "parse_sqk",
    "random_key",
    "session_boards",
    "session_file_name",
]

#: The algorithm id of SquareDeal 2.x events: keys, ``KH`` and their sessions dealt by Big Deal
#: (the ``"algorithm"`` of JSON).
SQUAREDEAL_ALGORITHM_ID = SQUAREDEAL
#: The 62 symbols SquareDeal keys are made of.
KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#: The length of the keys croupier makes (as SquareDeal does): 60 symbols, about 357 bits.
KEY_LENGTH = 60
#: The longest key a ``.sqk`` file may hold.
MAX_KEY_LENGTH = 1000
#: The most phases (``SN`` lines) an event may have.
MAX_PHASES = 100
#: The most sessions a phase may have, and the largest session number.
MAX_SESSIONS = 9999
#: The most sessions (keys) an event may have, and the most one dealing request may select.
MAX_EVENT_SESSIONS = 10_000
#: The most boards one dealing request (``make``) may deal, all sessions together.
MAX_DEAL_BOARDS = 100_000
#: The largest ``.sqd`` or ``.sqk`` file read (4 MiB: 10,000 keys take under 1 MiB).
MAX_EVENT_FILE_BYTES = 4 * 1024 * 1024

_KEY_RE = re.compile(r"^[A-Za-z0-9]+$")
_PREFIX_RE = re.compile(r"^[^:/\\\s]+$")


class SquareDealError(FileFormatError):
    """A malformed ``.sqd``/``.sqk`` file or an impossible SquareDeal request."""


def _sqd_error(source: str, lineno: int, message: str) -> SquareDealError:
    return SquareDealError(f"{source} line {lineno}: {message}")


# --------------------------------------------------------------------------- phases
@dataclass(frozen=True)
class BoardSpec:
    """The boards of a phase: ranges its sessions use in turn, or chosen when dealing.

    ``ranges`` is empty exactly for :attr:`CHOSEN_AT_DEALING` (written ``?``): the
    board numbers are given when the sessions are dealt.  ``text`` is the
    spelling in the ``.sqd`` file (``7`` and ``1-7`` mean the same boards), kept
    so that rewriting a file changes no byte; it takes no part in equality.

    >>> BoardSpec.parse("1-16,17-32").ranges
    (range(1, 17), range(17, 33))
    >>> BoardSpec.parse("?") is BoardSpec.CHOSEN_AT_DEALING, BoardSpec.CHOSEN_AT_DEALING.format()
    (True, '?')
    >>> BoardSpec((range(1, 8),)).format(), BoardSpec.parse("7") == BoardSpec.parse("1-7")
    ('1-7', True)
    """

    ranges: tuple[range, ...]
    text: str = field(default="", compare=False)

    #: The ``?`` spec: board numbers chosen at dealing time.
    CHOSEN_AT_DEALING: ClassVar[BoardSpec]

    def __post_init__(self) -> None:
        for r in self.ranges:
            if (
                not isinstance(r, range)
                or r.step != 1
                or not r
                or r.start < 1
                or r.stop > MAX_BOARD + 1
            ):
                raise BoardRangeError(
                    f"bad board range {r!r}; expected a range of boards within 1..{MAX_BOARD}"
                )
        if not self.text:
            written = ",".join(f"{r.start}-{r.stop - 1}" for r in self.ranges) or "?"
            object.__setattr__(self, "text", written)

    @classmethod
    def parse(cls, text: str) -> BoardSpec:
        """Parse ``?``, ``N`` (boards 1..N), ``A-B`` or a comma list of them."""
        if text.strip() == "?":
            return cls.CHOSEN_AT_DEALING
        return cls(tuple(parse_board_list(text)), text.strip())

    def format(self) -> str:
        """The spec as written in the ``.sqd`` file."""
        return self.text

    @property
    def chosen_at_dealing(self) -> bool:
        """True for ``?``: the boards are given when the sessions are dealt."""
        return not self.ranges


BoardSpec.CHOSEN_AT_DEALING = BoardSpec((), "?")


class KeyId(NamedTuple):
    """The name of one key in a ``.sqk`` file: phase and session (session 0 in a variable phase).

    >>> KeyId.parse("2,0"), KeyId(1, 3).format()
    (KeyId(phase=2, session=0), '1,3')
    """

    phase: int
    session: int

    @classmethod
    def parse(cls, text: str) -> KeyId:
        """Parse ``PHASE,SESSION`` (ASCII digits, phase 1..100, session 0..9999)."""
        found = _key_id(text.strip())
        if found is None:
            raise SquareDealError(
                f"bad key name {excerpt(text)}; expected PHASE,SESSION like '1,2' "
                f"(phase 1..{MAX_PHASES}, session 0..{MAX_SESSIONS})"
            )
        return found

    def format(self) -> str:
        """The key name as written in the ``.sqk`` file: ``p,s``."""
        return f"{self.phase},{self.session}"


def _number(text: str, limit: int) -> int | None:
    """``text`` as a number 0..``limit`` (ASCII digits, leading zeros allowed), else ``None``."""
    value = bounded_decimal(text.lstrip("0") or text[-1:], len(str(limit)))
    return value if value is not None and value <= limit else None


def _key_id(text: str) -> KeyId | None:
    """``PHASE,SESSION`` as a :class:`KeyId` when both numbers are in range, else ``None``."""
    phase, comma, session = text.partition(",")
    p, s = _number(phase, MAX_PHASES), _number(session, MAX_SESSIONS)
    if not comma or p is None or s is None or p < 1:
        return None
    return KeyId(p, s)


def _expand_boards(spec: str) -> str:
    """Turn ``3x7`` into ``1-7,8-14,15-21``; other specs are returned unchanged."""
    m = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", spec, re.ASCII)
    if m is None:
        return spec.strip()
    count, size = _number(m.group(1), MAX_BOARD), _number(m.group(2), MAX_BOARD)
    if count is None or size is None or count < 1 or size < 1 or count * size > MAX_BOARD:
        raise BoardRangeError(
            f"bad board spec {excerpt(spec.strip())}: 'NxM' needs N, M >= 1 and N*M <= "
            f"{MAX_BOARD} (boards are numbered 1..{MAX_BOARD})"
        )
    return ",".join(f"{i * size + 1}-{(i + 1) * size}" for i in range(count))


@dataclass(frozen=True)
class Phase:
    """One ``SN sessions:boards:prefix:description`` line of a ``.sqd`` file.

    ``sessions == 0`` marks a variable phase (any session number, one key).
    ``boards`` is a :class:`BoardSpec`: ``N``, ``A-B``, a comma list, or
    :attr:`BoardSpec.CHOSEN_AT_DEALING` (``?``).

    >>> Phase.parse("1:3x7:R#:Round #").boards.format()
    '1-7,8-14,15-21'
    >>> Phase.parse("2:7:TWO#:Two #/2").boards_for_session(2)
    range(1, 8)
    """

    sessions: int
    boards: BoardSpec
    prefix: str
    description: str

    def __post_init__(self) -> None:
        if not 0 <= self.sessions <= MAX_SESSIONS:
            raise SquareDealError(
                f"number of sessions {self.sessions} out of range; expected 0..{MAX_SESSIONS} "
                "(0 for a variable number of sessions)"
            )
        if not isinstance(self.boards, BoardSpec):
            raise SquareDealError(f"boards={self.boards!r} must be a BoardSpec")
        if not _PREFIX_RE.match(self.prefix):
            raise SquareDealError(
                f"bad file prefix {excerpt(self.prefix)}: expected a file name without ':', '/', "
                "'\\' or spaces, with an optional run of '#' for the session number"
            )
        if len(re.findall(r"#+", self.prefix)) > 1:
            raise SquareDealError(
                f"bad file prefix {excerpt(self.prefix)}: at most one run of '#' "
                "(the session number)"
            )
        if "\n" in self.description or "\r" in self.description:
            raise SquareDealError(f"phase description {excerpt(self.description)} must be one line")
        _check_text(self.prefix, "the phase's file prefix")
        _check_text(self.description, "the phase description")

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Parse ``SESSIONS:BOARDS:PREFIX:DESCRIPTION`` (the description may contain ``:``)."""
        parts = text.strip().split(":", 3)
        if len(parts) != 4:
            raise SquareDealError(
                f"bad phase {excerpt(text)}; expected SESSIONS:BOARDS:PREFIX:DESCRIPTION, "
                "like '2:1-16,17-32:OPRR##:Open pairs round #'"
            )
        sessions_text, boards, prefix, description = (part.strip() for part in parts)
        sessions = _number(sessions_text, MAX_SESSIONS)
        if sessions is None:
            raise SquareDealError(
                f"bad phase {excerpt(text)}: the number of sessions {excerpt(sessions_text)} "
                f"must be a whole number 0..{MAX_SESSIONS} (0 for a variable number of sessions)"
            )
        try:
            spec = BoardSpec.parse(_expand_boards(boards))
            return cls(sessions, spec, prefix, description)
        except BoardRangeError as exc:
            raise SquareDealError(f"bad phase {excerpt(text)}: {exc}") from None

    def format(self) -> str:
        """The phase as written after ``SN ``."""
        return f"{self.sessions}:{self.boards.format()}:{self.prefix}:{self.description}"

    @property
    def variable(self) -> bool:
        """True for a phase with a variable number of sessions (``sessions == 0``)."""
        return self.sessions == 0

    def check_session(self, session: int) -> None:
        """Raise unless ``session`` exists in this phase."""
        if session < 1 or (not self.variable and session > self.sessions):
            valid = "1 or more" if self.variable else f"1..{self.sessions}"
            raise SquareDealError(
                f"phase {self.prefix!r} has no session {session}; expected {valid}"
            )

    def boards_for_session(self, session: int) -> range:
        """The board numbers of ``session``: element ``(session - 1) mod len`` of the list."""
        self.check_session(session)
        if self.boards.chosen_at_dealing:
            raise SquareDealError(
                f"phase {self.prefix!r} has board spec '?': give the boards explicitly (boards=A-B)"
            )
        ranges = self.boards.ranges
        return ranges[(session - 1) % len(ranges)]

    def key_id(self, phase_number: int, session: int) -> KeyId:
        """The ``.sqk`` key of a session: ``KeyId(p, s)``; ``KeyId(p, 0)`` in a variable phase."""
        return KeyId(phase_number, 0 if self.variable else session)

    def session_ids(self) -> list[int]:
        """Sessions of a fixed phase (``[]`` for a variable phase)."""
        return list(range(1, self.sessions + 1))


def _check_text(text: str, what: str) -> None:
    """Refuse text that the ``.sqd`` file cannot hold byte for byte (see :func:`utf8_bytes`).

    Command-line bytes that are not UTF-8 (surrogate escapes) are kept as the
    bytes they are, as SquareDeal does; any other lone surrogate has no bytes.
    """
    utf8_bytes(text, what, escapes=True, error=SquareDealError)


def session_file_name(prefix: str, session: int, *, reserve: bool = False) -> str:
    """SquareDeal's file name (no extension): the run of ``#`` becomes the session number.

    The number is zero-padded to the width of the run; a prefix without ``#`` is
    used as is; reserve sets append ``reserve``.

    >>> session_file_name("VAR#", 12), session_file_name("ONE", 1)
    ('VAR12', 'ONE')
    """
    m = re.search(r"#+", prefix)
    name = (
        prefix
        if m is None
        else (prefix[: m.start()] + str(session).zfill(m.end() - m.start()) + prefix[m.end() :])
    )
    return name + ("reserve" if reserve else "")


# ------------------------------------------------------------------------ the event
@dataclass(frozen=True)
class SquareDealEvent:
    """The contents of a ``.sqd`` file.

    ``delayed_value`` is kept exactly as stored (text; bytes that are not UTF-8
    survive as surrogate escapes), ``key_hash`` is ``KH`` or ``None`` before
    the keys are made.

    >>> SquareDealEvent("T", delayed_value="12,345.6 7").dv_bytes()
    b'12,345.6 7'
    """

    name: str
    delayed_info: str = ""
    delayed_value: str | None = None
    phases: Sequence[Phase] = field(default_factory=list)
    key_hash: str | None = None

    def __post_init__(self) -> None:
        _check_text(self.name, "name=")
        _check_text(self.delayed_info, "delayed_info=")
        if self.delayed_value is not None:
            _check_text(self.delayed_value, "delayed_value=")
        if len(self.phases) > MAX_PHASES:
            raise SquareDealError(f"{len(self.phases)} phases; an event has at most {MAX_PHASES}")
        keys = sum(max(p.sessions, 1) for p in self.phases)
        if keys > MAX_EVENT_SESSIONS:
            raise SquareDealError(
                f"the phases have {keys} sessions in all; an event has at most "
                f"{MAX_EVENT_SESSIONS} (a variable phase counts as one)"
            )

    def phase(self, number: int) -> Phase:
        """Phase ``number`` (1-based, in file order)."""
        if not 1 <= number <= len(self.phases):
            raise SquareDealError(f"no phase {number}; this event has phases 1..{len(self.phases)}")
        return self.phases[number - 1]

    def with_key_hash(self, value: str) -> SquareDealEvent:
        """A copy with ``KH`` set."""
        return replace(self, key_hash=value)

    def with_delayed_value(self, value: str) -> SquareDealEvent:
        """A copy with ``DV`` set (byte-exact, one line, no trailing whitespace)."""
        check_delayed_value(value)
        return replace(self, delayed_value=value)

    def dv_bytes(self) -> bytes:
        """The ``DV`` bytes as stored; raises when the event has no ``DV`` yet."""
        if self.delayed_value is None:
            raise SquareDealError(
                f"event {self.name!r} has no delayed value (DV) yet; record it with the "
                "set-dv step once it is known"
            )
        return self.delayed_value.encode("utf-8", "surrogateescape")


def check_delayed_value(value: str) -> None:
    """Raise unless ``value`` can be stored byte-exact on a ``DV`` line.

    >>> check_delayed_value("12,345.6 7")
    >>> check_delayed_value("7 ")
    Traceback (most recent call last):
    ...
    croupier.tournament.squaredeal.SquareDealError: bad delayed value '7 ': ...
    """
    _check_text(value, "the delayed value (DV)")
    if not value or value != value.strip() or "\n" in value or "\r" in value:
        raise SquareDealError(
            f"bad delayed value {excerpt(value)}: it must be one non-empty line without leading or "
            "trailing whitespace (it is stored and used byte for byte)"
        )


def parse_sqd(text: str, *, source: str = "<sqd>") -> SquareDealEvent:
    """Parse a SquareDeal 2.x ``.sqd`` file.

    Lines are ``# comment``, ``TN name``, ``DI info``, ``DV value``,
    ``SN phase`` and ``KH hash``; anything else is an error naming the line.

    >>> ev = parse_sqd("TN Test\\nDV 12,345.6 7\\nSN 1:5-9:ONE:One\\n")
    >>> ev.name, ev.delayed_value, ev.phases[0].boards_for_session(1)
    ('Test', '12,345.6 7', range(5, 10))
    >>> parse_sqd("TN Test\\nXX what\\n", source="a.sqd")
    Traceback (most recent call last):
    ...
    croupier.tournament.squaredeal.SquareDealError: a.sqd line 2: unknown line 'XX what'; ...
    """
    name: str | None = None
    info = ""
    dv: str | None = None
    kh: str | None = None
    phases: list[Phase] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        code = line[:2]
        rest = line[3:] if line[2:3] == " " else ("" if len(line) == 2 else None)
        if rest is None or code not in ("TN", "DI", "DV", "SN", "KH"):
            raise _sqd_error(
                source,
                lineno,
                f"unknown line {masked_excerpt(line)}; expected '# comment' or a line starting "
                "with TN, DI, DV, SN or KH and a space",
            )
        if code != "SN" and code in seen:
            raise _sqd_error(
                source,
                lineno,
                f"a second {code} line (the first is line {seen[code]}); an event has one of each",
            )
        seen[code] = lineno
        if code == "TN":
            name = rest.rstrip()
        elif code == "DI":
            info = rest.rstrip()
        elif code == "DV":
            dv = rest.rstrip()
            if not dv:
                raise _sqd_error(source, lineno, "empty DV line; give the delayed value")
        elif code == "KH":
            kh = rest.strip().lower()
            if not re.fullmatch(r"[0-9a-f]{64}", kh):
                raise _sqd_error(
                    source, lineno, f"bad key hash {excerpt(rest.strip())}; expected 64 hex digits"
                )
        else:
            if len(phases) == MAX_PHASES:
                raise _sqd_error(
                    source,
                    lineno,
                    f"more than {MAX_PHASES} SN lines; an event has at most {MAX_PHASES} phases",
                )
            try:
                phases.append(Phase.parse(rest))
            except SquareDealError as exc:
                raise _sqd_error(source, lineno, str(exc)) from None
    if name is None:
        raise SquareDealError(f"{source}: no 'TN' line; the event needs a name")
    if not phases:
        raise SquareDealError(f"{source}: no 'SN' line; the event needs at least one phase")
    try:
        return SquareDealEvent(name, info, dv, phases, kh)
    except SquareDealError as exc:
        raise SquareDealError(f"{source}: {exc}") from None


def format_sqd(event: SquareDealEvent) -> str:
    """The ``.sqd`` text of ``event``, in SquareDeal 2.x's line format (LF line ends).

    >>> print(format_sqd(SquareDealEvent("T", phases=[Phase.parse("1:5:A:A")])), end="")
    # SquareDeal 2.x event description (croupier)
    TN T
    SN 1:5:A:A
    # do not edit: the key hash KH commits to the secret keys
    """
    lines = ["# SquareDeal 2.x event description (croupier)", f"TN {event.name}"]
    if event.delayed_info:
        lines.append(f"DI {event.delayed_info}")
    if event.delayed_value is not None:
        lines.append(f"DV {event.delayed_value}")
    lines.extend(f"SN {p.format()}" for p in event.phases)
    if event.key_hash is not None:
        lines.append(f"KH {event.key_hash}")
    lines.append("# do not edit: the key hash KH commits to the secret keys")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- keys
@dataclass(frozen=True)
class SquareDealKeys:
    """The secret keys of an event: :class:`KeyId` → key, in file order.

    >>> SquareDealKeys({KeyId(1, 1): "abc"}).keys[KeyId(1, 1)]
    'abc'
    """

    keys: dict[KeyId, str]

    def key_for(self, event: SquareDealEvent, phase_number: int, session: int) -> str:
        """The key of a session (``p,0`` for a variable phase)."""
        key_id = event.phase(phase_number).key_id(phase_number, session)
        key = self.keys.get(key_id)
        if key is None:
            raise SquareDealError(f"the key file has no key {key_id.format()!r} (phase,session)")
        return key


def parse_sqk(text: str, *, source: str = "<sqk>") -> SquareDealKeys:
    """Parse a ``.sqk`` file: lines ``phase,session:KEY`` (CRLF or LF).

    Errors name the file and line but never quote it: the line may hold a
    secret key.

    >>> parse_sqk("1,1:abcDEF123\\r\\n").keys
    {KeyId(phase=1, session=1): 'abcDEF123'}
    >>> parse_sqk("1;1:abc\\r\\n", source="k.sqk")
    Traceback (most recent call last):
    ...
    croupier.tournament.squaredeal.SquareDealError: k.sqk line 1: bad key line (not shown: ...
    """
    keys: dict[KeyId, str] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        name, colon, key = line.partition(":")
        key_id = _key_id(name)
        if not colon or key_id is None:
            raise _sqd_error(
                source,
                lineno,
                "bad key line (not shown: it may hold a secret key); expected "
                f"PHASE,SESSION:KEY with phase 1..{MAX_PHASES} and session 0..{MAX_SESSIONS}",
            )
        if not (1 <= len(key) <= MAX_KEY_LENGTH and key.isascii() and _KEY_RE.match(key)):
            raise _sqd_error(
                source,
                lineno,
                f"bad key {key_id.format()!r} (not shown: it is secret); expected 1 to "
                f"{MAX_KEY_LENGTH} letters A-Z, a-z and digits 0-9",
            )
        if key_id in keys:
            raise _sqd_error(source, lineno, f"key {key_id.format()!r} appears twice")
        if len(keys) == MAX_EVENT_SESSIONS:
            raise _sqd_error(
                source,
                lineno,
                f"more than {MAX_EVENT_SESSIONS} keys; an event has at most "
                f"{MAX_EVENT_SESSIONS} sessions",
            )
        keys[key_id] = key
    if not keys:
        raise SquareDealError(f"{source}: no keys found")
    return SquareDealKeys(keys)


def format_sqk(keys: SquareDealKeys) -> bytes:
    """The ``.sqk`` file bytes: one ``p,s:KEY`` line per key, CRLF line ends.

    >>> format_sqk(SquareDealKeys({KeyId(1, 1): "abc", KeyId(2, 0): "XYZ"}))
    b'1,1:abc\\r\\n2,0:XYZ\\r\\n'
    """
    return b"".join(f"{k.format()}:{v}\r\n".encode("ascii") for k, v in keys.keys.items())


def key_hash(sqk: bytes) -> str:
    """``KH``: SHA-256 (hex) of the key file with every line re-terminated by CRLF.

    >>> key_hash(b"1,1:abc\\n") == key_hash(b"1,1:abc\\r\\n")
    True
    """
    lines = sqk.splitlines()
    normalised = b"".join(line + b"\r\n" for line in lines)
    return hashlib.sha256(normalised).hexdigest()


def make_keys(event: SquareDealEvent, source: RandomSource | None = None) -> SquareDealKeys:
    """Fresh secret keys for every session of ``event`` (``p,0`` for variable phases).

    Each key is :data:`KEY_LENGTH` symbols, each chosen exactly uniformly
    among the 62 of :data:`KEY_ALPHABET` (rejection sampling, no modulo bias)
    from ``source`` (default: the operating system's CSPRNG).

    >>> ev = SquareDealEvent("T", phases=[Phase.parse("2:7:A#:A"), Phase.parse("0:5:B#:B")])
    >>> [k.format() for k in make_keys(ev).keys]
    ['1,1', '1,2', '2,0']
    """
    sampler = UniformSampler(source if source is not None else OsRandomSource())
    keys: dict[KeyId, str] = {}
    for p, phase in enumerate(event.phases, start=1):
        sessions = [0] if phase.variable else phase.session_ids()
        for s in sessions:
            keys[KeyId(p, s)] = random_key(sampler)
    return SquareDealKeys(keys)


def random_key(chooser: Chooser, length: int = KEY_LENGTH) -> str:
    """A key of ``length`` symbols, each exactly uniform over :data:`KEY_ALPHABET`.

    >>> from croupier.randomness import ScriptedChooser
    >>> random_key(ScriptedChooser([0, 25, 26, 61]), 4)
    'AZa9'
    """
    return "".join(KEY_ALPHABET[chooser.below(len(KEY_ALPHABET))] for _ in range(length))


# ------------------------------------------------------------------------- dealing
@dataclass(frozen=True, order=True)
class SessionRef:
    """One set to deal: phase number, session number, and whether it is the reserve set.

    >>> SessionRef(1, 2) < SessionRef(2, 1)
    True
    """

    phase: int
    session: int
    reserve: bool = False


def session_boards(
    event: SquareDealEvent,
    keys: SquareDealKeys,
    ref: SessionRef,
    boards: range | None = None,
) -> list[Board]:
    """Regenerate the boards SquareDeal + Big Deal make for one session.

    ``boards`` overrides the phase's board numbers (needed for a ``?`` spec).

    >>> ev = parse_sqd("TN T\\nDV 7\\nSN 1:3:A:A\\n")
    >>> keys = SquareDealKeys({KeyId(1, 1): "LLLLRRRR"})
    >>> [b.number for b in session_boards(ev, keys, SessionRef(1, 1))]
    [1, 2, 3]
    """
    phase = event.phase(ref.phase)
    phase.check_session(ref.session)
    numbers = boards if boards is not None else phase.boards_for_session(ref.session)
    key = keys.key_for(event, ref.phase, ref.session)
    half = len(key) // 2
    owner, right = key[:half], key[half:]
    entropy = right + base64.b64encode(event.dv_bytes()).decode("ascii")
    entropy += "reserve" if ref.reserve else "original"
    if phase.variable:
        entropy += f"ses{ref.session}"
    return bigdeal_boards(seed_from_entropy([entropy]), owner, numbers)


def _parse_numbers(text: str, limit: int | None, what: str) -> list[range]:
    """The ranges of a ``*``, ``N``, ``A-B`` or comma list (nothing expanded: ranges stay small)."""
    text = text.strip()
    if text == "*":
        if limit is None:
            raise SquareDealError(
                f"'*' cannot stand for the sessions of a variable phase; give numbers like "
                f"'{what}/3' or '{what}/1-4'"
            )
        return [range(1, limit + 1)]
    out: list[range] = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?", part, re.ASCII)
        if m is None:
            raise SquareDealError(
                f"bad number list {excerpt(text)}; expected '*', N, A-B or a list"
            )
        low = _number(m.group(1), MAX_SESSIONS)
        high = _number(m.group(2) or m.group(1), MAX_SESSIONS)
        if low is None or high is None or low < 1 or high < low:
            raise SquareDealError(
                f"bad number range {excerpt(part.strip())}; expected A-B with "
                f"1 <= A <= B <= {MAX_SESSIONS}"
            )
        out.append(range(low, high + 1))
    return out


def parse_session_spec(
    event: SquareDealEvent, spec: str = "*/*", *, reserve: bool = False
) -> list[SessionRef]:
    """Parse ``PHASES/SESSIONS`` items separated by ``;`` (``*`` = all), e.g. ``"1/2-3;2/*"``.

    ``*/*`` covers every session of every fixed phase; variable phases need
    explicit session numbers.  The result is in SquareDeal's order: phases in
    file order, then sessions ascending.

    >>> ev = SquareDealEvent("T", phases=[Phase.parse("2:7:A#:A"), Phase.parse("0:5:B#:B")])
    >>> [(r.phase, r.session) for r in parse_session_spec(ev, "*/*;2/4")]
    [(1, 1), (1, 2), (2, 4)]
    """
    refs: set[SessionRef] = set()
    selected = 0  # counted before any range is expanded
    for item in spec.split(";"):
        if "/" not in item:
            raise SquareDealError(
                f"bad session spec {excerpt(item.strip())}; expected PHASES/SESSIONS like "
                "'1/2', '2/*' or '*/*'"
            )
        phase_part, session_part = item.split("/", 1)
        if phase_part.strip() == "*":
            phase_ranges = [range(1, len(event.phases) + 1)]
            skip_variable = session_part.strip() == "*"
        else:
            phase_ranges = _parse_numbers(phase_part, len(event.phases), "P")
            skip_variable = False
        for p in (p for r in phase_ranges for p in r):
            phase = event.phase(p)
            if phase.variable and skip_variable:
                continue
            limit = None if phase.variable else phase.sessions
            session_ranges = _parse_numbers(session_part, limit, str(p))
            for r in session_ranges:
                phase.check_session(r[-1])
            selected += sum(len(r) for r in session_ranges)
            if selected > MAX_EVENT_SESSIONS:
                raise SquareDealError(
                    f"session spec {excerpt(spec)} selects more than {MAX_EVENT_SESSIONS} "
                    "sessions; deal them in several runs"
                )
            refs.update(SessionRef(p, s, reserve) for r in session_ranges for s in r)
    if not refs:
        raise SquareDealError(f"session spec {excerpt(spec)} selects no session")
    return sorted(refs)


def match_session_file(event: SquareDealEvent, file_name: str) -> SessionRef:
    """Which session a file name belongs to, from the phases' prefixes (extension ignored).

    >>> ev = SquareDealEvent("T", phases=[Phase.parse("0:8:VAR#:V"), Phase.parse("1:5-9:ONE:O")])
    >>> match_session_file(ev, "VAR4reserve.pbn"), match_session_file(ev, "ONE.pbn")
    (SessionRef(phase=1, session=4, reserve=True), SessionRef(phase=2, session=1, reserve=False))
    """
    stem = file_name.rsplit("/", 1)[-1]
    if "." in stem:
        stem = stem[: stem.rindex(".")]
    matches: list[SessionRef] = []
    for p, phase in enumerate(event.phases, start=1):
        m_run = re.search(r"#+", phase.prefix)
        for reserve in (False, True):
            suffix = "reserve" if reserve else ""
            if m_run is None:
                if stem == phase.prefix + suffix and (phase.sessions == 1):
                    matches.append(SessionRef(p, 1, reserve))
                continue
            width = m_run.end() - m_run.start()
            pattern = (
                re.escape(phase.prefix[: m_run.start()])
                + r"([0-9]+)"
                + re.escape(phase.prefix[m_run.end() :] + suffix)
            )
            m = re.fullmatch(pattern, stem, re.ASCII)
            if m is None:
                continue
            session = _number(m.group(1), MAX_SESSIONS)
            if session is None or session < 1 or str(session).zfill(width) != m.group(1):
                continue
            if not phase.variable and session > phase.sessions:
                continue
            matches.append(SessionRef(p, session, reserve))
    if not matches:
        prefixes = ", ".join(repr(ph.prefix) for ph in event.phases)
        raise SquareDealError(
            f"file {excerpt(file_name)} matches no session of this event; SquareDeal names files "
            f"after the phase prefixes {prefixes}"
        )
    if len(matches) > 1:
        raise SquareDealError(
            f"file {excerpt(file_name)} matches several sessions {matches!r}; rename it to one "
            "SquareDeal file name"
        )
    return matches[0]
