"""Fuzzing with a fixed budget: every text parser, every command's options, a regression corpus.

Three parts:

* **Parsers.**  Hypothesis feeds every text parser of the library a few
  thousand inputs built from that parser's own vocabulary (fragments and
  mutations of valid input) mixed with hostile pieces: numbers far beyond any
  limit (over Python's 4,300-digit guard too), Unicode digits, control
  characters, empty and very long strings.  A parser may accept its input or
  raise a :class:`~croupier.errors.CroupierError` whose message is one short,
  printable line; any other exception, or a call that takes more than a few
  seconds, fails.
* **Commands.**  Every command of :data:`croupier.cli.app.COMMANDS` is run
  in-process with argument lists generated from its declared options and
  arguments.  A run may succeed (exit 0), fail with one line ``error: ...``
  (exit 2), or — only for the verification commands — answer no (exit 1);
  anything else fails.  Each run happens in a fresh temporary folder holding
  sample files, and paths are generated relative to it, so nothing is written
  elsewhere.
* **Corpus.**  Every input that ever crashed croupier is a file under
  ``tests/fuzz_corpus/`` (its README says what each one is); each is replayed
  in a child process with a timeout and an address-space limit, and must end in
  one line ``error: ...`` with exit code 2 (or succeed, where the case says it
  is valid input) — never a traceback, never minutes, never gigabytes, never
  key material.

The examples are derandomized (the same inputs on every run, everywhere), and
sizes are generated either small or far beyond every documented limit, so no
legitimate run takes long: a slow example is a finding.  Guards turn a
regression into a failure rather than a hang: a timer per example, a hard
watchdog that ends the process (with a traceback dump) if even the timer cannot
interrupt, and an address-space limit on this process while the module runs.
"""

from __future__ import annotations

import faulthandler
import io
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, UnionType
from typing import Any, Literal, Union, get_args, get_origin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st
from typer.core import TyperArgument, TyperOption

from croupier.boards import Board, parse_board_list, parse_board_range
from croupier.bulk.writers import parse_oneline
from croupier.cards import Card, Rank, Suit, parse_card, parse_cards
from croupier.cli.app import leaf_commands, run
from croupier.dealing import make_layout
from croupier.dealing.evaluation import parse_shape
from croupier.dealing.layout import game_names
from croupier.decks import MAX_SHOE_DECKS, deck_names, make_deck
from croupier.errors import CroupierError
from croupier.formats.board_files import read_board_file, read_boards, render_boards
from croupier.formats.deal_text import parse_deal_piles
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal, parse_pbn_hand
from croupier.moves import parse_faro_mode
from croupier.orders import CardOrder, get_order, order_names
from croupier.perm import Permutation
from croupier.randomness.entropy import EntropySource
from croupier.randomness.seeded import parse_seed
from croupier.ranking.bigdeal import goedel_unrank
from croupier.ranking.partitions import parse_decimal
from croupier.ranking.schemes import get_scheme, scheme_names
from croupier.simulate import Predeal, parse_expression, parse_script
from croupier.spec import MOVES, parse_spec
from croupier.tournament.bigdeal import seed_from_hex
from croupier.tournament.squaredeal import (
    BoardSpec,
    KeyId,
    Phase,
    key_hash,
    match_session_file,
    parse_session_spec,
    parse_sqd,
    parse_sqk,
)
from croupier.tournament.verifiable import commitment, parse_key, verify_commitment

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
SAMPLES = Path(__file__).resolve().parent / "vectors" / "bigdeal"

PARSER_EXAMPLES = 3000
"""Inputs per parser (a few thousand; each takes well under a millisecond)."""
BATCH = 50
"""Inputs per Hypothesis example (drawing them together costs a fraction of one by one)."""
STRUCTURED = 10
"""Inputs of a batch that Hypothesis builds from strategies (edge cases, boundary values);
the rest come from a seeded generator of the same shapes that Hypothesis picks the seed for
(twenty times cheaper, so the budget buys thousands of inputs per parser)."""
CLI_EXAMPLES = 32
"""Argument lists per command (each is a whole in-process run of the program)."""
PARSER_SECONDS = 60.0
"""A batch of parser calls still running after this is a hang (each call takes microseconds,
a batch well under a second): a watchdog for runaway work, never a timing of a loaded machine."""
CLI_SECONDS = 60.0
"""A command run still running after this is a hang (generated sizes are small; a run takes
well under a second)."""
CORPUS_SECONDS = 60
"""A replayed corpus case still running after this is a hang (refusals take well under a
second; each case also runs under an address-space limit, which bounds work by memory)."""
MEMORY_HEADROOM = 2 << 30
"""Address space a fuzzed call or replayed case may add (bytes): 2 GiB."""
LINE_LIMIT = 700
"""The longest acceptable error line (the program cuts messages at 600 characters)."""
VERIFY_COMMANDS = {"squaredeal verify", "boards verify"}
"""The commands that may answer no with exit code 1."""

SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
"""Health checks about generation speed and size, which hostile inputs trip on purpose."""
NO_SHRINKING = (Stage.explicit, Stage.generate)
"""A failure names its exact input already; shrinking hostile inputs can take minutes."""


# -- guards --------------------------------------------------------------------------


class Overtime(BaseException):
    """Raised by the timer inside a call that ran too long (no ``except Exception`` stops it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail (AssertionError) when the body takes longer than ``seconds``.

    A timer interrupts Python code; a hard watchdog ends the whole process with
    a traceback dump if the body is stuck where the timer cannot reach (one long
    C call), so a regression fails instead of hanging the test run.
    """

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Overtime

    previous = signal.signal(signal.SIGALRM, expire)
    faulthandler.dump_traceback_later(4 * seconds + 60, exit=True, file=2)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except Overtime:
        raise AssertionError(f"took longer than {seconds} s") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        faulthandler.cancel_dump_traceback_later()
        signal.signal(signal.SIGALRM, previous)


def _address_space() -> int:
    """The address space this process uses now (bytes)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


@pytest.fixture(scope="module", autouse=True)
def memory_limit() -> Iterator[None]:
    """While this module runs, a fuzzed call can add at most 2 GiB (then MemoryError fails it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def check_message(message: str) -> None:
    """An error message: one short line, bad input quoted escaped (no raw control characters)."""
    assert message.strip(), "empty error message"
    assert len(message) <= LINE_LIMIT, f"{len(message)}-character message: {message[:200]!r}..."
    assert message.isprintable(), f"raw control or separator character in {message[:300]!r}"


def check_no_key_material(message: str, secret: str) -> None:
    """No run of 16 hex digits of ``secret`` shows up in ``message``, nor 12 characters of a
    longer key-like run (SquareDeal's session keys are not hex)."""
    for run_ in re.findall(r"[0-9a-fA-F]{16,}", secret):
        assert run_[:16].lower() not in message.lower(), f"key material in {message!r}"
    for run_ in re.findall(r"[0-9A-Za-z+/=_-]{20,}", secret):
        for start in range(len(run_) - 11):
            assert run_[start : start + 12] not in message, f"key material in {message!r}"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 300 else f"{text[:300]}... ({len(text)} characters)"


def check_parse(call: Callable[[Any], object], value: object) -> None:
    """``call(value)`` succeeds or raises a CroupierError with a good message.

    A failure names the input (shortened), so no shrinking is needed to read it.
    """
    try:
        call(value)
    except CroupierError as exc:
        try:
            check_message(str(exc))
        except AssertionError as bad:
            raise AssertionError(f"input {_short(value)}: {bad}") from None
    except Exception as exc:  # MemoryError included: the address space is limited
        raise AssertionError(f"input {_short(value)}: {type(exc).__name__}: {exc}") from exc


# -- hostile pieces ------------------------------------------------------------------

HUGE_NUMBERS = [
    "2147483648",
    "4294967296",
    "999999999999",
    "18446744073709551616",
    "99999999999999999999",
    "1" + "0" * 400,
    "7" * 4301,
]
ODD_NUMBERS = ["0", "-1", "-0", "+3", "00", "1_0", "0x1f", "1e9", "3.0", "nan", "-99999999999"]
UNICODE_DIGITS = ["²", "٣", "७", "９", "𝟗", "①", "Ⅻ", "½", "߀", "7٣", "١٢"]
CONTROL = ["\x01", "\x1b[2J", "\x1f", "\x7f", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c"]
UNICODE_ODD = ["\x85", "\u2028", "\ufeff", "\u200b", "\u0301", "ß", "İ", "ﬁ", "😀", "\U0010ffff"]
PUNCTUATION = ["", " ", "  ", ":", ",", ";", "/", "-", "*", "?", "#", "%", "|", "=", '"', "'", "\\"]
LONG = ["A" * 3000, "9" * 2000 + "x", "-" * 1000, ":" * 500, ", " * 800]

NASTY_PIECES = HUGE_NUMBERS + ODD_NUMBERS + UNICODE_DIGITS + CONTROL + UNICODE_ODD + PUNCTUATION
NASTY: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(NASTY_PIECES),
    st.text(max_size=6),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(LONG),
)


def _splice(example: str, edits: Sequence[tuple[int, int, str]]) -> str:
    text = example
    for position, cut, piece in edits:
        at = position % (len(text) + 1)
        text = text[:at] + piece + text[at + cut :]
    return text


def fuzzed(atoms: Sequence[str], examples: Sequence[str] = ()) -> st.SearchStrategy[str]:
    """Text from ``atoms`` (valid fragments) and hostile pieces, or mutated ``examples``."""
    piece = st.one_of(st.sampled_from(list(atoms)), st.sampled_from(list(atoms)), NASTY)
    built = st.lists(piece, max_size=12).map("".join)
    options = [built, st.text(max_size=30)]
    if examples:
        edits = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 6), piece), max_size=4)
        options.append(st.builds(_splice, st.sampled_from(list(examples)), edits))
        options.append(st.sampled_from(list(examples)))
    return st.one_of(options)


def fuzzed_bytes(examples: Sequence[bytes]) -> st.SearchStrategy[bytes]:
    """Bytes: valid ``examples`` with bytes or hostile text spliced in, or raw bytes."""
    piece = st.one_of(st.binary(max_size=8), NASTY.map(lambda s: s.encode("utf-8", "replace")))
    edits = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 8), piece), max_size=4)

    def splice(example: bytes, changes: Sequence[tuple[int, int, bytes]]) -> bytes:
        data = example
        for position, cut, chunk in changes:
            at = position % (len(data) + 1)
            data = data[:at] + chunk + data[at + cut :]
        return data

    return st.one_of(
        st.builds(splice, st.sampled_from(list(examples)), edits), st.binary(max_size=400)
    )


def _random_text(r: random.Random, size: int) -> str:
    """Up to ``size`` code points from anywhere in Unicode (no surrogates), ASCII half the time."""
    top = 0x80 if r.random() < 0.5 else 0x110000
    points = (r.randrange(top) for _ in range(r.randint(0, size)))
    return "".join(chr(c) for c in points if not 0xD800 <= c < 0xE000)


def _random_piece(r: random.Random, atoms: Sequence[str]) -> str:
    roll = r.random()
    if roll < 0.5:
        return r.choice(atoms)
    if roll < 0.9:
        return r.choice(NASTY_PIECES)
    if roll < 0.97:
        return _random_text(r, 6)
    return r.choice(LONG)


def mutated_text(r: random.Random, atoms: Sequence[str], examples: Sequence[str]) -> str:
    """The seeded counterpart of :func:`fuzzed` (same shapes, a fraction of the cost)."""
    roll = r.random()
    if examples and roll < 0.45:
        text = r.choice(examples)
        for _ in range(r.randint(1, 4)):
            at = r.randint(0, len(text))
            text = text[:at] + _random_piece(r, atoms) + text[at + r.randint(0, 6) :]
        return text
    if roll < 0.9:
        return "".join(_random_piece(r, atoms) for _ in range(r.randint(0, 12)))
    return _random_text(r, 30)


def mutated_bytes(r: random.Random, examples: Sequence[bytes]) -> bytes:
    """The seeded counterpart of :func:`fuzzed_bytes`."""
    if r.random() < 0.1:
        return r.randbytes(r.randint(0, 400))
    data = r.choice(examples)
    for _ in range(r.randint(1, 4)):
        at = r.randint(0, len(data))
        if r.random() < 0.5:
            chunk = r.randbytes(r.randint(0, 8))
        else:
            chunk = _random_piece(r, NASTY_PIECES).encode("utf-8", "replace")
        data = data[:at] + chunk + data[at + r.randint(0, 8) :]
    return data


@dataclass(frozen=True)
class Inputs:
    """Inputs generated two ways: a Hypothesis strategy, and a fast seeded generator."""

    strategy: st.SearchStrategy[Any]
    draw: Callable[[random.Random], Any]

    def __repr__(self) -> str:
        return "Inputs(...)"


def text_inputs(atoms: Sequence[str], examples: Sequence[str] = ()) -> Inputs:
    """Text from ``atoms`` and hostile pieces, or mutated ``examples``."""
    atoms, examples = list(atoms), list(examples)
    return Inputs(fuzzed(atoms, examples), lambda r: mutated_text(r, atoms, examples))


def bytes_inputs(examples: Sequence[bytes]) -> Inputs:
    """File contents: mutated ``examples`` or random bytes."""
    return Inputs(fuzzed_bytes(examples), lambda r: mutated_bytes(r, examples))


def tuple_inputs(*parts: Inputs) -> Inputs:
    """One input of each part, as a tuple."""
    return Inputs(
        st.tuples(*(p.strategy for p in parts)), lambda r: tuple(p.draw(r) for p in parts)
    )


def optional_inputs(part: Inputs) -> Inputs:
    """``None`` or an input of ``part``."""
    return Inputs(st.none() | part.strategy, lambda r: None if r.random() < 0.3 else part.draw(r))


def choice_inputs(values: Sequence[Any]) -> Inputs:
    """One of ``values``."""
    return Inputs(st.sampled_from(list(values)), lambda r: r.choice(values))


def filtered_inputs(part: Inputs, keep: Callable[[Any], bool]) -> Inputs:
    """Inputs of ``part`` for which ``keep`` holds."""

    def draw(r: random.Random) -> Any:
        while not keep(value := part.draw(r)):
            pass
        return value

    return Inputs(part.strategy.filter(keep), draw)


# -- sample inputs -------------------------------------------------------------------

DEALS = [goedel_unrank(n) for n in (0, 7919, 10**20 + 3, 53644737765488792839237439999)]
BOARDS = [Board.standard(n, hands) for n, hands in zip((1, 2, 3), DEALS, strict=False)]
PBN_DEALS = [format_pbn_deal(hands) for hands in DEALS]
SYN_SQD = (SAMPLES / "SYN.sqd").read_text(encoding="utf-8")
SYN_SQK = (SAMPLES / "SYN.sqk").read_text(encoding="utf-8")
SYN_EVENT = parse_sqd(SYN_SQD)
DIGITS = [str(d) for d in range(10)] + ["10", "13", "52", "16", "32"]

CARD_ATOMS = [
    *"AKQJT98765432",
    "10",
    "1",
    "0",
    *"SHDCshdc",
    *"♠♥♦♣♤♡♢♧",
    "JK",
    "Joker",
    "Ace",
    " of ",
    "Spades",
    "🂡",
    "🃏",
    ",",
    " ",
    "X",
]
CARD_TEXTS = ["AS KH 10d", "A♠, K♥", "JK", "Ace of Spades, 2 of clubs", "Th 9c 🂡"]
HEX = list("0123456789abcdefABCDEF")
RANGE_ATOMS = [*DIGITS, "-", ",", " ", "x", "X", "?", ":", "#", "A", *HUGE_NUMBERS]
RANGE_TEXTS = ["16", "1-16", "17-32", "1-8, 9-16", "3x7", "?", "5-9", "1,2,3"]


@dataclass(frozen=True)
class Target:
    """One parser: how to call it on a generated input, and how inputs are generated."""

    name: str
    call: Callable[[Any], object]
    inputs: Inputs

    def __repr__(self) -> str:
        return self.name


def _key_check(text: str) -> None:
    try:
        parse_key(text)
    except CroupierError as exc:
        check_message(str(exc))
        check_no_key_material(str(exc), text)


def _not_a_big_valid_shoe(name: str) -> bool:
    """False for ``shoe:K`` with 100 < K <= the limit: valid input, and slow to build."""
    m = re.fullmatch(r"\s*shoe:\s*([0-9]{3,5})\s*", name, re.IGNORECASE)
    return m is None or not 100 < int(m.group(1)) <= MAX_SHOE_DECKS


def _layout(args: tuple[str | None, str | None, str | None, int | None]) -> object:
    game, hands, deck, players = args
    return make_layout(game, hands=hands, deck=deck, players=players)


PILE_LAYOUTS = [make_layout(), make_layout(hands=[2, 1], deck="stripped:AK"), make_layout("skat")]
HUGE_INTS = [10**12, 2**63, 10**400]
MAYBE_INT = choice_inputs([None, -3, -1, 0, 1, 2, 3, 4, 5, 7, 12, *HUGE_INTS])

PARSERS = [
    Target("parse_cards", parse_cards, text_inputs(CARD_ATOMS, CARD_TEXTS)),
    Target("parse_card", parse_card, text_inputs(CARD_ATOMS, ["AS", "10♥", "Ace of Spades", "JK"])),
    Target("Card.parse", Card.parse, text_inputs(CARD_ATOMS, ["AS", "kh", "🂡"])),
    Target("Suit.parse", Suit.parse, text_inputs(CARD_ATOMS, ["S", "♥", "clubs"])),
    Target("Rank.parse", Rank.parse, text_inputs(CARD_ATOMS, ["A", "10", "T", "Queen"])),
    Target(
        "get_order (custom:RANKS:SUITS)",
        get_order,
        text_inputs(
            [*order_names(), "custom:", ":", *CARD_ATOMS], ["custom:AKQ:S", "custom:AT KQJ9:"]
        ),
    ),
    Target(
        "CardOrder.custom",
        lambda rs: CardOrder.custom(*rs),
        tuple_inputs(
            text_inputs(CARD_ATOMS, ["AKQJT98765432"]), text_inputs(CARD_ATOMS, ["SHDC", ""])
        ),
    ),
    Target(
        "make_deck (shoe:K, stripped:RANKS)",
        make_deck,
        filtered_inputs(
            text_inputs(
                [*deck_names(), "shoe:", "stripped:", *DIGITS, *CARD_ATOMS],
                ["shoe:6", "stripped:AKQJ", "Pinochle", "shoe:12"],
            ),
            _not_a_big_valid_shoe,
        ),
    ),
    Target(
        "Permutation.parse",
        lambda t: (Permutation.parse(t), Permutation.parse(t, base=1)),
        text_inputs(
            ["(", ")", "[", "]", ",", " ", "-", *DIGITS], ["[2, 0, 1]", "(0 2)(1 3)", "()"]
        ),
    ),
    Target(
        "Permutation.parse(n=)",
        lambda args: Permutation.parse(args[0], n=args[1]),
        tuple_inputs(text_inputs(["(", ")", ",", " ", *DIGITS], ["(1 3)"]), MAYBE_INT),
    ),
    Target(
        "parse_spec",
        parse_spec,
        text_inputs(
            [*MOVES, "out", "in", "id", ":", ",", "*", "(", ")", "-", "_", *DIGITS],
            ["cut:3,riffle,faro-out*8", "(cut:1,faro-in)*3, pile:4, reverse", "out*-1"],
        ),
    ),
    Target(
        "EntropySource.parse",
        EntropySource.parse,
        text_inputs(
            ["dice:", "d6:", "d20:", "d", "coins:", "hex:", "H", "T", *HEX, ",", " ", ";", "_"],
            ["dice:3,6,1", "d20:20,1", "coins:HTTH", "hex:a", "d6:123456"],
        ),
    ),
    Target(
        "parse_seed", parse_seed, text_inputs(["hex:", *HEX, " "], ["club night", "hex:616263"])
    ),
    Target("seed_from_hex (bigdeal --hash)", seed_from_hex, text_inputs(HEX, ["0" * 40, "f" * 40])),
    Target(
        "make_layout (game, hands, deck, players)",
        _layout,
        tuple_inputs(
            optional_inputs(text_inputs([*game_names(), "custom", "-", "_", " "], game_names())),
            optional_inputs(text_inputs([*DIGITS, ",", " "], ["7,7,7", "13,13,13,13", "5"])),
            optional_inputs(
                text_inputs([*deck_names(), "shoe:", "stripped:", *DIGITS], ["shoe:2"])
            ),
            MAYBE_INT,
        ),
    ),
    Target(
        "parse_pbn_deal",
        parse_pbn_deal,
        text_inputs(["N:", "E:", "S:", "W:", *"AKQJT98765432", ".", " ", "-", "x"], PBN_DEALS),
    ),
    Target(
        "parse_pbn_hand",
        parse_pbn_hand,
        text_inputs([*"AKQJT98765432", ".", "-", "x"], [d.split()[1] for d in PBN_DEALS]),
    ),
    Target(
        "parse_deal_piles",
        lambda args: parse_deal_piles(*args),
        tuple_inputs(
            choice_inputs(PILE_LAYOUTS),
            text_inputs([*CARD_ATOMS, "/", " / "], ["AS KS / AH", "AS / KH / AD"]),
        ),
    ),
    Target("parse_board_range", parse_board_range, text_inputs(RANGE_ATOMS, RANGE_TEXTS)),
    Target(
        "parse_board_range(bare_count=False)",
        lambda t: parse_board_range(t, bare_count=False),
        text_inputs(RANGE_ATOMS, RANGE_TEXTS),
    ),
    Target("parse_board_list", parse_board_list, text_inputs(RANGE_ATOMS, RANGE_TEXTS)),
    Target("BoardSpec.parse", BoardSpec.parse, text_inputs(RANGE_ATOMS, RANGE_TEXTS)),
    Target("KeyId.parse", KeyId.parse, text_inputs(RANGE_ATOMS, ["1,2", "2,0"])),
    Target(
        "Phase.parse",
        Phase.parse,
        text_inputs(
            [*RANGE_ATOMS, "R#", "##", "CUP", "/"],
            ["1:3x7:R#:Round #", "2:7:TWO#:Two #/2", "0:1-8,9-16:VAR#:Variable #", "1:?:A:A"],
        ),
    ),
    Target(
        "parse_session_spec",
        lambda t: parse_session_spec(SYN_EVENT, t),
        text_inputs([*RANGE_ATOMS, "/", ";", "*"], ["*/*", "1/2-3;2/*", "3/1", "1/4"]),
    ),
    Target(
        "match_session_file",
        lambda t: match_session_file(SYN_EVENT, t),
        text_inputs(
            ["VAR", "TWO", "ONE", "reserve", ".pbn", ".", *DIGITS], ["VAR2.pbn", "ONE.lin"]
        ),
    ),
    Target(
        "parse_sqd",
        parse_sqd,
        text_inputs(
            ["TN ", "DI ", "DV ", "SN ", "KH ", "# ", "\n", "\r\n", *RANGE_ATOMS], [SYN_SQD]
        ),
    ),
    Target(
        "parse_sqk",
        parse_sqk,
        text_inputs([*RANGE_ATOMS, "\r\n", "\n", "abcDEF"], [SYN_SQK, "1,1:abcDEF123\r\n"]),
    ),
    Target("parse_key", _key_check, text_inputs([*HEX, " ", "\n"], ["00" * 32, "ab" * 32 + "\n"])),
    Target(
        "verify_commitment",
        lambda t: verify_commitment(bytes(32), "Cup", t),
        text_inputs([*HEX, "é", " "], [commitment(bytes(32), "Cup"), "00" * 32]),
    ),
    Target("parse_decimal", parse_decimal, text_inputs([*DIGITS, "-"], ["42", "-7", "0042"])),
    Target("parse_faro_mode", parse_faro_mode, text_inputs(["out", "in", "faro-", "-"], ["out"])),
    Target("get_scheme", get_scheme, text_inputs([*scheme_names(), "-", ":"], scheme_names())),
]

BOARD_FILE_FORMATS = ["pbn", "lin", "dlm", "csv", "lines", "dup", "json"]
BOARD_FILES = {fmt: [render_boards(BOARDS[:k], fmt) for k in (1, 3)] for fmt in BOARD_FILE_FORMATS}


def _board_reader(fmt: str) -> Callable[[bytes], object]:
    return lambda data: read_boards(data, fmt, source="f")


PARSERS += [
    Target(f"read_boards({fmt})", _board_reader(fmt), bytes_inputs(BOARD_FILES[fmt]))
    for fmt in BOARD_FILE_FORMATS
]
PARSERS += [
    Target(
        f"read_board_file({fmt})",
        lambda data, fmt=fmt: read_board_file(data, fmt, source="f", partial=True),
        bytes_inputs(BOARD_FILES[fmt]),
    )
    for fmt in BOARD_FILE_FORMATS
]
PARSERS.append(
    Target(
        "read_boards(lines, first_board=)",
        lambda args: read_boards(args[0], "lines", first_board=args[1]),
        tuple_inputs(
            bytes_inputs(BOARD_FILES["lines"]),
            choice_inputs([-3, 0, 1, 2, 999, 1000, 10**5, *HUGE_INTS]),
        ),
    )
)


SHAPE_ATOMS = ["any", "ANY", "x", "X", "+", "-", " ", "4333", "5xxx", "13", "0", "(", "9"]
PARSERS += [
    Target(
        "parse_shape",
        parse_shape,
        text_inputs(SHAPE_ATOMS, ["any 4333 + 5xxx - 5332", "4432", "xx4x"]),
    ),
    Target(
        "parse_oneline",
        lambda text: parse_oneline(text, make_layout()),
        text_inputs(
            ["n ", "e ", "s ", "w ", "AKQ", ".", "-", "\n", " ", "T98"],
            ["n AKQ.JT9.876.5432 e JT98.AKQ.5432.76 s 765.876.AKQJ.JT9 w 432.5432.T9.AKQ8 \n"],
        ),
    ),
]

DEALER_ATOMS = ["hcp(", "north", ")", ",", "+", "-", "*", "/", "?", ":", "==", "!", "and", "="]
DEALER_ATOMS += ["shape(", "any", "4333", "5xxx", "AS", "SAK", "x3N", '"', "#", "//", "/*", "*/"]
DEALER_ATOMS += ["1", "x", "predeal", "action", "printes(", "frequency", "condition", "("]
DEALER_ATOMS += ["score(vul,", "spades(", " ", "\n"]
DEALER_EXAMPLES = [
    "predeal south SAQ542, HKJ87, D32, CAK\nproduce 10\n"
    "nt = shape(west, any 4333 + any 4432 - 5xxx) && hcp(west) > 14\n"
    'condition nt\naction average "spades" spades(north), frequency (hcp(north), 0, 37)\n',
    "a = 1 ? 3 : 1 ? 2 : 1\naction printes(a, \\n), printoneline(score(vul, x3N, 9))",
]
PREDEAL_ATOMS = ["N:", "E:", "S:", "W:", "north", "south", " ", ",", ".", "-", "AKQ", "SAQ5"]
PREDEAL_ATOMS += ["HKJ", "T9", "x", "spades(north)==1", "AS", "10", "\n"]
PARSERS += [
    Target("parse_script", parse_script, text_inputs(DEALER_ATOMS, DEALER_EXAMPLES)),
    Target(
        "Predeal.parse",
        Predeal.parse,
        text_inputs(PREDEAL_ATOMS, ["N:AQ542.KJ87.32.AK S:-.-.-.QJ", "south SAQ542, HKJ87, D32"]),
    ),
    Target(
        "parse_expression",
        parse_expression,
        text_inputs(DEALER_ATOMS, ["hcp(north) >= 15 and shape(north, any 4333)", "!(1 - -2)"]),
    ),
]


@pytest.mark.parametrize("target", PARSERS, ids=[t.name for t in PARSERS])
@settings(
    max_examples=PARSER_EXAMPLES // BATCH,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=SLOW_IS_FINE,
    phases=NO_SHRINKING,
)
@given(data=st.data())
def test_parser_accepts_or_refuses_cleanly(target: Target, data: st.DataObject) -> None:
    structured = st.lists(target.inputs.strategy, min_size=STRUCTURED, max_size=STRUCTURED)
    batch = data.draw(structured, label="inputs")
    seeded = random.Random(data.draw(st.integers(0, 2**64 - 1), label="seed"))
    batch += [target.inputs.draw(seeded) for _ in range(BATCH - STRUCTURED)]
    with time_limit(PARSER_SECONDS):
        for value in batch:
            check_parse(target.call, value)


# -- commands ------------------------------------------------------------------------

Leaf = tuple[list[str], Any]


LEAVES: list[Leaf] = [(path, command) for path, command in leaf_commands()]

SAMPLE_FILES = {
    "SYN.sqd": (SAMPLES / "SYN.sqd").read_bytes(),
    "SYN.sqk": (SAMPLES / "SYN.sqk").read_bytes(),
    "EV.sqd": b"TN Cup\nSN 2:1-4:CUP#:Cup #\nSN 0:1-2:V#:Var #\n",
    "ONE.pbn": (SAMPLES / "ONE.pbn").read_bytes(),
    "TWO1.pbn": (SAMPLES / "TWO1.pbn").read_bytes(),
    "k.key": b"00" * 32 + b"\n",
    "short.key": b"0123456789abcdef" * 3 + b"0123456789abcde\n",
    "boards.lin": BOARD_FILES["lin"][1],
    "boards.dlm": BOARD_FILES["dlm"][1],
    "boards.csv": BOARD_FILES["csv"][1],
    "boards.txt": BOARD_FILES["lines"][1],
    "boards.dup": BOARD_FILES["dup"][1],
    "boards.pbn": BOARD_FILES["pbn"][1],
    "boards.json": BOARD_FILES["json"][1],
    "items.txt": b"one\ntwo\r\nthree\n",
    "nt.dlr": b"generate 3000\nproduce 3\nnt = shape(north, any 4333 + any 4432)"
    b" && hcp(north) >= 15\ncondition nt\naction printoneline, average hcp(south)\n",
    # few deals: a run with --dd solves every deal produced double dummy (a fraction of a
    # second each), and a fuzzed run must stay well inside its time limit
    "stats.dlr": b"generate 12\npredeal south SAQ542, HKJ87\n"
    b'action frequency "n" (hcp(north), 0, 37), average "s" spades(west)\n',
}
SAMPLE_KEY_FILES = ("short.key", "SYN.sqk")
"""The sample files holding keys (``k.key`` is all zeros, which long numbers repeat)."""
FILE_NAMES = [*SAMPLE_FILES, "missing.pbn", "new.sqd", "new.sqk", "new.key", "new.pbn", "new.dup"]
SAFE_NAMES = st.from_regex(
    r"[a-z]{1,6}(\.(pbn|lin|dlm|dup|csv|txt|json|html|sqd|sqk|key|svg|png))?", fullmatch=True
)
PATHS = st.one_of(
    st.sampled_from(FILE_NAMES),
    st.sampled_from(
        ["", ".", "-", "out", "sub/new.pbn", "ünï.pbn", "a b.csv", "plot.svg", "p.png"]
    ),
    SAFE_NAMES,
)
"""Relative names only (no ``..``, nothing absolute): every run stays in its folder."""

INT_TEXTS = [*"0123456", "-1", "-7", *HUGE_NUMBERS, *UNICODE_DIGITS[:4], "", " 3", "+3", "1e3", "x"]
CLI_NASTY = st.one_of(
    NASTY.filter(lambda s: "\x00" not in s),
    st.sampled_from(["\udcff", "a\udc80b", "--json", "--debug", "--", "-"]),
)
"""Hostile values a command line can carry (surrogate escapes, but never NUL)."""


def _methods() -> list[str]:
    from croupier.analysis.methods import analysis_methods
    from croupier.dealing.methods import method_names
    from croupier.shuffling.registry import FLAWED_METHODS, SHUFFLE_METHODS

    return [*analysis_methods(), *method_names(), *SHUFFLE_METHODS, *FLAWED_METHODS]


METHODS = _methods()
SPECS = ["cut:3", "riffle", "faro-out*8", "(cut:1,faro-in)*3", "pile:4", "reverse", "kfaro:3"]

VOCABULARY: dict[str, list[str]] = {
    "game": [*game_names(), "custom"],
    "--deck": [*deck_names(), "shoe:2", "shoe:0", "stripped:AKQ", "stripped:"],
    "name": [*deck_names(), "shoe:2", "stripped:AKQ"],
    "--hands": ["13,13,13,13", "7,7,7", "5", "0", "3,2", "4", "1 2 3"],
    "--method": METHODS,
    "method": [*METHODS, "riffle,overhand", "lehmer,fisher-yates"],
    "--seed": ["club night", "x", "hex:00", "hex:616263", "1234567890123", "a" * 24],
    "--entropy": ["dice:3,6,1", "d6:123456" * 3, "coins:HTTH", "hex:ff", "d20:20,1", "x"],
    "--scheme": scheme_names(),
    "--sort": [*order_names(), "custom:AKQ:S", "custom:AT KQJ9:"],
    "text": CARD_TEXTS,
    "items": ["a", "b", "AS", "1", "one two"],
    "spec": SPECS,
    "specs": SPECS,
    "--cards": ["0", "1", "3", "5", "8", "52"],
    "--to": ["0", "1", "7", "51", "pbn", "lin", "dup", "dlm", "csv", "json", "lines"],
    "--from": ["0", "1", "7", "pbn", "lin", "dup", "dlm", "csv", "json", "lines"],
    "deal_text": [*PBN_DEALS, "AS KS / AH"],
    "number": ["0", "1", "12345", "53644737765488792839237439999"],
    "--owner": ["o", "Club"],
    "--boards": ["1", "4", "1-4", "5-6", "17-20"],
    "--hash": ["0" * 40, "f" * 40, "0" * 39],
    "--name": ["Cup", "Club night", " "],
    "--phase": ["1:5:A:A", "2:1-4:CUP#:Cup #", "0:4:V#:V", "1:?:ASK:Ask", "1:3x2:R#:R"],
    "--delayed-info": ["the Dow Jones", ""],
    "value": ["12,345.6 7", "1", "", " x"],
    "--sessions": ["*/*", "2/1", "3/1", "1/2", "1/1-2;2/*"],
    "--event": ["Cup", "Club night", ""],
    "--dv": ["7", "12,345.6 7", ""],
    "--commitment": [commitment(bytes(32), "Cup"), "00" * 32, "é" * 64],
    "--session": ["1", "2"],
    "--plan": ["1:1-16;2:17-32", "1:1-4", "2:5-6", "1:?"],
    "--key-file": ["k.key", "k.key", "short.key", "new.key"],
    "sqd": ["SYN.sqd", "EV.sqd", "new.sqd"],
    "sqk": ["SYN.sqk"],
    "--keys": ["SYN.sqk", "new.sqk"],
    "files": [
        "ONE.pbn",
        "TWO1.pbn",
        *(f"boards.{e}" for e in ("pbn", "lin", "dlm", "csv", "dup", "json")),
    ],
    "--out": ["out", "new.pbn", "new.dup", "."],
    "--plot": ["plot.svg", "p.png", "out/x.svg"],
    "--file": ["items.txt", "-", "missing.txt"],
    "script_path": ["nt.dlr", "stats.dlr", "missing.dlr", "items.txt", "out"],
    "--where": ["hcp(north) >= 15", "shape(east, 5xxx) and hcp(east) > 10", "1", "hcp(north) >"],
    "--predeal": ["N:AK.QJ.-.-", "south SAQ542, HKJ87", "N:AKQ", "E:AS"],
    "--generate": ["1", "5", "8", "0"],
    "--produce": ["1", "3", "0"],  # and INT_TEXTS' small numbers: few deals for --dd
    "--dealer-seed": ["1", "42", "-3"],
    "source_path": ["ONE.pbn", "boards.lin", "boards.dlm", "boards.dup", "boards.csv", "-"],
    "target_path": ["new.pbn", "new.lin", "new.dup", "new.json", "-", "ONE.pbn"],
}
"""Plausible values per option (long flag) or argument (name); the rest is hostile."""


def _value_strategies(
    path: list[str], param: Any
) -> tuple[st.SearchStrategy[str], st.SearchStrategy[str]]:
    """Plausible and hostile values for one option or argument of ``croupier PATH``."""
    annotation = param.type_descriptor.annotation
    name = param.name or ""
    longs = [o for o in param.opts if o.startswith("--")]
    key = longs[0] if isinstance(param, TyperOption) and longs else name
    if get_origin(annotation) in (list, Union, UnionType):  # list[X], X | None: look at X
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    choices = [str(c) for c in get_args(annotation)] if get_origin(annotation) is Literal else []
    choices += [str(m.value) for m in getattr(annotation, "__members__", {}).values()]
    if key == "--cards" and path[0] in {"analyze", "mixing"}:
        plausible: st.SearchStrategy[str] = st.sampled_from(["0", "1", "2", "3", "4", "5"])
    elif key in VOCABULARY:
        plausible = st.sampled_from(VOCABULARY[key])
    elif annotation is Path:
        plausible = PATHS
    elif choices:
        plausible = st.sampled_from(choices)
    elif annotation is int:
        plausible = st.sampled_from(INT_TEXTS)  # small, or far beyond any limit
    else:
        plausible = st.text(max_size=10)
    if annotation is Path:
        return plausible, PATHS
    return plausible, st.sampled_from(INT_TEXTS) if annotation is int else CLI_NASTY


@st.composite
def _argv(draw: st.DrawFn, path: list[str], command: Any) -> list[str]:
    """An argument list for ``croupier PATH``: some of its options, its arguments, in any order.

    At most two values are hostile, so most runs get past the first check.
    """
    params = [p for p in command.params if not getattr(p, "is_flag", False)]
    hostile = draw(st.sets(st.sampled_from(params), max_size=2)) if params else set()

    def value(param: Any) -> str:
        plausible, bad = _value_strategies(path, param)
        return draw(bad if param in hostile else plausible)

    options: list[list[str]] = []
    arguments: list[str] = []
    for param in command.params:
        if isinstance(param, TyperArgument):
            many = param.nargs == -1
            count = draw(st.integers(1 if param.required else 0, 3 if many else 1))
            arguments += [value(param) for _ in range(count)]
        elif isinstance(param, TyperOption):
            flag = draw(st.sampled_from(param.opts))
            if param.is_flag:
                if draw(st.booleans()):
                    options.append([flag])
                continue
            times = draw(st.integers(1 if param.required else 0, 2 if param.multiple else 1))
            options += [[flag, value(param)] for _ in range(times)]
    order = draw(st.permutations(options))
    flat = [token for option in order for token in option]
    if draw(st.booleans()):
        return [*path, *flat, *arguments]
    return [*path, *arguments, *flat]


@dataclass(frozen=True)
class Outcome:
    """What one run printed and returned."""

    code: int
    out: bytes
    err: str


def _run_in(folder: Path, argv: list[str]) -> Outcome:
    """Run the program in-process inside ``folder``, with a small stdin and captured output."""
    saved = sys.stdin, sys.stdout, sys.stderr, Path.cwd()
    with (folder / ".stdout").open("w+b") as out, (folder / ".stderr").open("w+b") as err:
        text_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        text_err = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace")
        sys.stdin = io.TextIOWrapper(io.BytesIO(b"x\ny\n"), encoding="utf-8")
        sys.stdout, sys.stderr = text_out, text_err
        try:
            os.chdir(folder)
            with time_limit(CLI_SECONDS):
                code = run(argv)
        finally:
            os.chdir(saved[3])
            sys.stdin, sys.stdout, sys.stderr = saved[:3]
            for stream in (text_out, text_err):
                if not stream.closed:
                    stream.flush()
                    stream.detach()
        out.seek(0)
        err.seek(0)
        return Outcome(code, out.read(), err.read().decode("utf-8"))


def check_outcome(command: str, outcome: Outcome) -> None:
    """Success, a one-line ``error:`` with exit 2, or a verifier's "no" (exit 1)."""
    assert "Traceback" not in outcome.err, outcome.err[-2000:]
    lines = [line for line in outcome.err.splitlines() if not line.startswith("warning: ")]
    if outcome.code == 2:
        assert len(lines) == 1, f"not one error line: {outcome.err[:1000]!r}"
        assert lines[0].startswith("error: "), lines[0][:300]
        check_message(lines[0])
    elif outcome.code == 1:
        assert command in VERIFY_COMMANDS, f"exit 1 from {command}: {outcome.err[:500]!r}"
    else:
        assert outcome.code == 0, f"exit code {outcome.code}: {outcome.err[:500]!r}"


@pytest.fixture(scope="module")
def sample_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of sample input files that each run gets a fresh copy of."""
    folder = tmp_path_factory.mktemp("samples")
    for name, data in SAMPLE_FILES.items():
        (folder / name).write_bytes(data)
    (folder / "out").mkdir()
    return folder


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=[" ".join(path) for path, _ in LEAVES])
def test_command_options_are_fuzzed(path: list[str], command: Any, sample_folder: Path) -> None:
    @settings(
        max_examples=CLI_EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=SLOW_IS_FINE,
        phases=NO_SHRINKING,
    )
    @given(argv=_argv(path, command))
    def fuzz(argv: list[str]) -> None:
        with tempfile.TemporaryDirectory(dir=sample_folder.parent) as name:
            folder = Path(name) / "run"
            shutil.copytree(sample_folder, folder)
            check_outcome(" ".join(path), _run_in(folder, argv))

    fuzz()


# -- regression corpus ---------------------------------------------------------------

CHILD = r"""
import json, sys
from pathlib import Path
from croupier.errors import CroupierError
kind, case = sys.argv[1], Path(sys.argv[2])
def call():
    if kind == "call":
        spec = json.loads(case.read_text(encoding="utf-8"))
        module, _, name = spec["call"].partition(":")
        target = __import__(module, fromlist=["_"])
        for part in name.split("."):
            target = getattr(target, part)
        return target(*spec["args"])
    data = case.read_bytes()
    if kind == "sqd":
        from croupier.tournament.squaredeal import parse_sqd
        return parse_sqd(data.decode("utf-8"), source=case.name)
    if kind == "sqk":
        from croupier.tournament.squaredeal import parse_sqk
        return parse_sqk(data.decode("utf-8"), source=case.name)
    if kind == "key":
        from croupier.tournament.verifiable_workflow import read_key_file
        return read_key_file(case)
    if kind == "dlr":
        from croupier.simulate.script_run import run_script
        try:  # as croupier dealer reads a script: UTF-8, else Latin-1
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        return run_script(text, seed="corpus", generate=100)
    from croupier.formats.board_files import read_boards
    return read_boards(data, kind, source=case.name)
try:
    call()
except CroupierError as exc:
    print(f"error: {exc}", file=sys.stderr)
    sys.exit(2)
"""
"""Replays a library case in the child: exit 2 with ``error: <message>`` for a CroupierError."""

FILE_KINDS = {
    ".sqd": "sqd",
    ".sqk": "sqk",
    ".key": "key",
    ".pbn": "pbn",
    ".lin": "lin",
    ".dlm": "dlm",
    ".csv": "csv",
    ".txt": "lines",
    ".dup": "dup",
    ".dlr": "dlr",
}
"""Raw input files of the corpus, by extension: the reader that must refuse them (a dealer
script: ``run_script``, parsing it and running it for 100 deals)."""


LIMITED = (
    "import os, resource, sys; "
    "resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1]))); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])"
)
"""Starts ``python ARGS`` under an address-space limit (kept across ``exec``)."""


def _child(argv: list[str], folder: Path) -> Outcome:
    """Run ``python ARGV`` in ``folder`` with a timeout and a 2 GiB address-space limit."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-c", LIMITED, str(MEMORY_HEADROOM), *argv]
    try:
        done = subprocess.run(
            command,
            cwd=folder,
            env=env,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=CORPUS_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {CORPUS_SECONDS} s: {_short(argv)}")
    return Outcome(done.returncode, done.stdout, done.stderr.decode("utf-8", "backslashreplace"))


def check_refused(outcome: Outcome, secret: str = "") -> None:
    """Exactly one line ``error: ...`` (warnings aside), exit 2, no traceback, no key."""
    assert "Traceback" not in outcome.err, outcome.err[-1500:]
    assert "MemoryError" not in outcome.err, outcome.err[-500:]
    lines = [line for line in outcome.err.splitlines() if not line.startswith("warning: ")]
    assert outcome.code == 2, f"exit code {outcome.code}: {outcome.err[-800:]!r}"
    assert len(lines) == 1, f"not one error line: {outcome.err[:1000]!r}"
    assert lines[0].startswith("error: "), lines[0][:300]
    check_message(lines[0])
    check_no_key_material(lines[0], secret)


def check_expected(outcome: Outcome, spec: dict[str, Any], secret: str = "") -> None:
    """The outcome a JSON case names: ``"exit"`` 2 (the default: refused), 0, or null (either);
    a refusal never quotes ``secret``."""
    wanted = spec.get("exit", 2)
    if wanted == 2 or (wanted is None and outcome.code != 0):
        check_refused(outcome, secret)
    else:
        assert "Traceback" not in outcome.err, outcome.err[-1500:]
        assert outcome.code == 0, f"exit code {outcome.code}: {outcome.err[-800:]!r}"
    if "stdout" in spec:
        assert outcome.out.decode("utf-8") == spec["stdout"]


def _prepare(folder: Path) -> None:
    """The sample files that the command-line cases refer to."""
    for name, data in SAMPLE_FILES.items():
        (folder / name).write_bytes(data)


CLI_CASES = sorted(CORPUS.glob("*.cli.json"))
CALL_CASES = sorted(CORPUS.glob("*.call.json"))
FILE_CASES = sorted(p for p in CORPUS.iterdir() if p.suffix in FILE_KINDS)


def _key_text(case: Path) -> str:
    """What a case's messages must not quote: a key file, or a dealer script (a key given
    as a script by mistake)."""
    return case.read_bytes().decode("latin-1") if case.suffix in (".key", ".dlr") else ""


@pytest.mark.parametrize("case", CLI_CASES, ids=[p.name for p in CLI_CASES])
def test_corpus_command_line(case: Path, tmp_path: Path) -> None:
    spec = json.loads(case.read_text(encoding="utf-8"))
    _prepare(tmp_path)
    keys = [SAMPLE_FILES[name].decode("latin-1") for name in SAMPLE_KEY_FILES]
    keys.append(spec.get("secret", ""))  # a key the case pastes into an argument
    check_expected(_child(["-m", "croupier", *spec["argv"]], tmp_path), spec, "\n".join(keys))


@pytest.mark.parametrize("case", CALL_CASES, ids=[p.name for p in CALL_CASES])
def test_corpus_library_call(case: Path, tmp_path: Path) -> None:
    spec = json.loads(case.read_text(encoding="utf-8"))
    check_expected(_child(["-c", CHILD, "call", str(case)], tmp_path), spec)


def _readable(case: Path) -> bool:
    """A file case named ``...-readable.EXT`` once crashed its reader but is valid input."""
    return case.stem.endswith("-readable")


@pytest.mark.parametrize("case", FILE_CASES, ids=[p.name for p in FILE_CASES])
def test_corpus_file_is_handled_by_its_reader(case: Path, tmp_path: Path) -> None:
    outcome = _child(["-c", CHILD, FILE_KINDS[case.suffix], str(case)], tmp_path)
    if _readable(case):
        assert (outcome.code, outcome.err) == (0, "")
    else:
        check_refused(outcome, _key_text(case))


def _command_reading(case: Path, folder: Path) -> list[str]:
    """The command line that reads ``case`` (copied into ``folder`` as ``case`` + extension)."""
    name = "case" + case.suffix
    shutil.copyfile(case, folder / name)
    _prepare(folder)
    if case.suffix == ".sqd":
        return ["squaredeal", "verify", name, "SYN.sqk", "ONE.pbn"]
    if case.suffix == ".sqk":  # an event whose KH matches, so the keys are read
        kh = key_hash(case.read_bytes())
        event = re.sub(r"(?m)^KH .*$", f"KH {kh}", SAMPLE_FILES["SYN.sqd"].decode("utf-8"))
        (folder / "case.sqd").write_text(event, encoding="utf-8")
        return ["squaredeal", "verify", "case.sqd", name, "ONE.pbn"]
    if case.suffix == ".key":
        return ["boards", "commitment", "--event", "Cup", "--key-file", name]
    if case.suffix == ".dlr":
        return ["dealer", name, "-g", "100", "--seed", "corpus"]
    base = ["boards", "verify", "-e", "Cup", "--key-file", "k.key", "--dv", "7", "--session", "1"]
    return [*base, "--commitment", commitment(bytes(32), "Cup"), "--boards", "1", name]


@pytest.mark.parametrize("case", FILE_CASES, ids=[p.name for p in FILE_CASES])
def test_corpus_file_is_handled_by_the_command(case: Path, tmp_path: Path) -> None:
    argv = _command_reading(case, tmp_path)
    outcome = _child(["-m", "croupier", *argv], tmp_path)
    if _readable(case):  # read, then verified: a match or a mismatch, never a crash
        assert "Traceback" not in outcome.err and outcome.code in (0, 1), outcome.err[-800:]
    else:
        check_refused(outcome, _key_text(case))


def test_corpus_readme_lists_every_case() -> None:
    """Each case is one row of a table in the corpus README, saying what it is."""
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"(?m)^\| `([^`]+)` \|", readme)
    cases = sorted(p.name for p in CORPUS.iterdir() if p.name != "README.md")
    assert sorted(listed) == cases
