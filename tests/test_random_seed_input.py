"""Seed input: text with no UTF-8 encoding, malformed ``hex:`` seeds, errors that keep seeds secret.

A seed may be a secret (a tournament's, a long random ``hex:`` key), so no
error message may quote it: the messages say what is wrong and where.
"""

from __future__ import annotations

import hashlib

import pytest

import croupier
from croupier.bulk import BulkStream, deal_array
from croupier.deck import Deck
from croupier.errors import CroupierError, SeedError
from croupier.randomness import SeededSource, make_source, parse_seed
from tests.conftest import CliRunner

SECRET = hashlib.sha256(b"a secret seed for the tests").hexdigest()  # 64 hex digits
"""Stands for a secret ``hex:`` seed; its 8-digit pieces never appear by chance in a message."""


def _quotes_none_of(message: str, secret: str) -> bool:
    """Whether ``message`` holds no 8 consecutive characters of ``secret`` (nor their repr)."""
    pieces = {secret[i : i + 8] for i in range(len(secret) - 7)}
    escaped = repr(secret)[1:-1]
    pieces |= {escaped[i : i + 8] for i in range(len(escaped) - 7)}
    return not any(piece in message for piece in pieces)


def _one_line(message: str) -> bool:
    return bool(message) and "\n" not in message and message.isprintable()


# -- text that has no UTF-8 encoding -------------------------------------------------------

NOT_TEXT = [
    "\ud800",  # a lone high surrogate
    "club night \udcff 7",  # the byte 0xFF on a command line, as Python reads it
    "hex-like \udfff\ud800",
]


@pytest.mark.parametrize("seed", NOT_TEXT, ids=["high", "escaped byte", "two"])
def test_a_seed_that_is_not_valid_text_is_a_one_line_seed_error(seed: str) -> None:
    makers = [
        lambda: croupier.deal(seed=seed),
        lambda: croupier.shuffle(range(5), seed=seed),
        lambda: Deck(seed=seed),
        lambda: deal_array(1, seed=seed),
        lambda: BulkStream.seeded(seed),
        lambda: SeededSource(seed),
    ]
    for make in makers:
        with pytest.raises(SeedError) as caught:
            make()
        message = str(caught.value)
        assert _one_line(message)
        assert message.startswith("the seed is not valid text: character ")
        assert "hex:" in message  # says how to give such bytes
        assert "codec" not in message and _quotes_none_of(message, seed)


def test_the_position_of_the_character_is_named() -> None:
    with pytest.raises(SeedError, match="character 12 has no UTF-8 encoding"):
        parse_seed("club night \udcff 7")


@pytest.mark.parametrize(
    "command", [["deal"], ["deal", "--engine", "bulk"], ["shuffle", "a", "b", "c"]]
)
def test_the_cli_refuses_a_seed_byte_that_is_not_utf8_in_one_line(
    cli: CliRunner, command: list[str]
) -> None:
    seed = b"club night \xff 7".decode("utf-8", "surrogateescape")  # how Python reads argv
    r = cli([*command, "--seed", seed])
    assert r.code == 2
    assert r.out == ""
    assert r.err.startswith("error: the seed is not valid text: character 12 ")
    assert r.err.count("\n") == 1
    assert "codec" not in r.err and "surrogates not allowed" not in r.err
    assert _quotes_none_of(r.err, seed) and "club" not in r.err


def test_the_same_bytes_are_accepted_as_hex() -> None:
    hex_seed = "hex:" + b"club night \xff 7".hex()
    assert parse_seed(hex_seed) == b"club night \xff 7"


# -- malformed hex: seeds ------------------------------------------------------------------

HEX_CASES = [
    ("hex:" + SECRET + "zz", "character 65 after 'hex:' is something else"),
    ("hex:" + SECRET[:10] + "é" + SECRET[10:], "character 11 after 'hex:' is something else"),
    ("hex:" + SECRET[:20] + " " + SECRET[20:40] + "-" + SECRET[40:], "character 42 after"),
    ("hex:" + SECRET + "a", "an even number of hex digits (two a byte), not 65"),
    ("hex:" + SECRET[:31] + "\t" + SECRET[31:], "a tab or line end splits a pair"),
]


@pytest.mark.parametrize(
    ("seed", "what"), HEX_CASES, ids=["zz", "accent", "dash", "odd", "tab in a pair"]
)
def test_hex_seed_errors_say_what_is_wrong_without_quoting_the_seed(seed: str, what: str) -> None:
    with pytest.raises(SeedError) as caught:
        parse_seed(seed)
    message = str(caught.value)
    assert _one_line(message)
    assert what in message
    assert _quotes_none_of(message, SECRET)


def test_hex_seeds_still_ignore_spaces_and_whitespace_between_pairs() -> None:
    expected = bytes.fromhex(SECRET)
    assert parse_seed("hex:" + SECRET) == expected
    assert parse_seed("hex: " + " ".join(SECRET)) == expected  # spaces anywhere
    assert parse_seed("hex:" + SECRET[:32] + "\t" + SECRET[32:]) == expected  # between pairs


def test_the_cli_does_not_echo_a_bad_hex_seed(cli: CliRunner) -> None:
    for command in (["deal"], ["deal", "--engine", "bulk"], ["shuffle", "--cards", "5"]):
        r = cli([*command, "--seed", "hex:" + SECRET + "zz"])
        assert r.code == 2
        assert r.err.count("\n") == 1
        assert "character 65 after 'hex:'" in r.err
        assert _quotes_none_of(r.err, SECRET)


@pytest.mark.parametrize("seed", ["", "hex:", "hex:   "])
def test_an_empty_seed_is_refused(seed: str) -> None:
    with pytest.raises(SeedError, match="the seed is empty"):
        parse_seed(seed)


# -- other messages that could show a seed --------------------------------------------------


def test_refusals_of_seed_together_with_another_source_quote_neither() -> None:
    secret = "hex:" + SECRET
    attempts = [
        lambda: make_source(seed=secret, entropy="hex:" + SECRET[::-1]),
        lambda: croupier.deal(seed=secret, source=croupier.source()),
        lambda: croupier.shuffle([1, 2], seed=secret, source=croupier.source()),
        lambda: Deck(seed=secret, source=croupier.source()),
    ]
    for attempt in attempts:
        with pytest.raises(CroupierError) as caught:
            attempt()
        message = str(caught.value)
        assert "not both" in message
        assert _quotes_none_of(message, SECRET) and _quotes_none_of(message, SECRET[::-1])


def test_a_seed_of_the_wrong_type_is_named_by_its_type_only() -> None:
    secret = bytearray.fromhex(SECRET)  # bytes are a seed; a bytearray is not
    with pytest.raises(SeedError) as caught:
        croupier.deal(seed=secret)  # type: ignore[arg-type]
    message = str(caught.value)
    assert "bytearray" in message
    assert _quotes_none_of(message, repr(secret)[2:-1]) and _quotes_none_of(message, SECRET)
