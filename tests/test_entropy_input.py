"""Entropy specs (``dice:...``, ``coins:...``, ``hex:...``): errors that keep the rolls secret.

An entropy spec is the user's own secret randomness -- dice rolls, coin flips,
hex digits -- so an error says what is wrong and where (the roll's number, the
character's position) but never quotes the spec.  The secrets below are long
and irregular, so any 6 characters of them in a message are a quotation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

import croupier
from croupier.errors import CroupierError
from croupier.randomness import EntropySource, EntropySpecError, make_source
from croupier.tournament.bigdeal import entropy_warning, seed_from_entropy
from tests.conftest import CliRunner

_DIGEST = hashlib.sha256(b"the rolls of the entropy tests").digest()
ROLLS = "".join(str(1 + b % 6) for b in _DIGEST[:30])
"""30 d6 rolls: 78 bits nobody may read in an error message."""
D20 = ",".join(str(1 + b % 20) for b in _DIGEST[:30])
COINS = "".join("HT"[(b >> 3) & 1] for b in _DIGEST[:30])
BITS = "".join("01"[(b >> 3) & 1] for b in _DIGEST[:30])
HEX = _DIGEST.hex()[:40]

BAD_SPECS = {
    "dice, last roll x": "dice:" + ",".join(ROLLS) + ",x",
    "dice, a 7 inside": "dice:" + ROLLS[:20] + "7" + ROLLS[20:],
    "d6, a zero at the end": "d6:" + ROLLS + "0",
    "d6, unicode digit": "d6:" + ROLLS[:10] + "\u0663" + ROLLS[10:],
    "d20, 21": "d20:" + D20 + ",21",
    "d20, two rolls run together": "d20:" + D20.replace(",", "", 1),
    "d20, a long token": "d20:" + D20 + "," + ROLLS,
    "hex, zz": "hex:" + HEX + "zz",
    "hex, g inside": "hex:" + HEX[:20] + "g" + HEX[20:],
    "coins, X": "coins:" + COINS + "X",
    "bits, 2": "bits:" + BITS[:15] + "2" + BITS[15:],
    "no colon": ROLLS,
    "no colon, dice word": "dice " + ROLLS,
    "unknown kind": "dcie:" + ROLLS,
    "kind made of rolls": ROLLS + ":" + ROLLS,
    "no sides": "d0:" + ROLLS,
    "too many sides": "d" + ROLLS + ":" + ROLLS,
    "lone surrogate": "dice:" + ROLLS + "\udcff",
}
"""Bad specs, each holding one of the secrets (and at most one character that is no roll)."""

SECRETS = (ROLLS, ",".join(ROLLS), D20, COINS, BITS, HEX)


def _quotes_none_of(message: str, secrets: tuple[str, ...] = SECRETS) -> bool:
    """Whether ``message`` holds no 6 consecutive characters of any of ``secrets``."""
    pieces = {secret[i : i + 6] for secret in secrets for i in range(len(secret) - 5)}
    return not any(piece in message for piece in pieces)


def _one_line(message: str) -> bool:
    return bool(message) and "\n" not in message and message.isprintable()


def test_the_secrets_are_long_and_irregular() -> None:
    # a secret that starts like the examples of a message ("dice:3,6,1", "coins:HTTH") or
    # repeats itself could be "quoted" by chance; these do not
    assert len(set(ROLLS)) == 6 and not ROLLS.startswith("361")
    assert not COINS.startswith("HTTH") and not BITS.startswith("0110")
    assert EntropySource.parse("dice:" + ROLLS).remaining == 30
    assert EntropySource.parse("d20:" + D20).remaining == 30


@pytest.mark.parametrize("spec", list(BAD_SPECS.values()), ids=list(BAD_SPECS))
def test_a_bad_spec_is_refused_without_quoting_it(spec: str) -> None:
    with pytest.raises(EntropySpecError) as caught:
        EntropySource.parse(spec)
    message = str(caught.value)
    assert _one_line(message)
    assert len(message) < 300
    assert _quotes_none_of(message), message


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        ("dice:" + ",".join(ROLLS) + ",x", "roll 31"),
        ("dice:" + ROLLS[:20] + "7" + ROLLS[20:], "roll 21"),
        ("d20:" + D20 + ",21", "roll 31"),
        ("d20:" + D20.replace(",", "", 1), "roll 1"),
        ("hex:" + HEX[:20] + "g" + HEX[20:], "character 21 after 'hex:'"),
        ("coins:" + COINS + "X", "character 31 after 'coins:'"),
        ("bits:" + BITS[:15] + "2" + BITS[15:], "character 16 after 'bits:'"),
    ],
)
def test_the_message_says_where(spec: str, where: str) -> None:
    with pytest.raises(EntropySpecError, match=where):
        EntropySource.parse(spec)


def test_a_single_bad_character_is_still_named() -> None:
    # one character that is not a roll is no secret, and says at once what went wrong
    for spec, shown in [
        ("d6:²", "'²'"),
        ("hex:" + HEX + "z", "'z'"),
        ("dice:" + ROLLS + "7", "'7'"),
    ]:
        with pytest.raises(EntropySpecError, match=shown):
            EntropySource.parse(spec)


def test_a_spec_that_is_not_text_is_named_by_its_type() -> None:
    for spec in (int(ROLLS), ROLLS.encode()):
        with pytest.raises(EntropySpecError) as caught:
            EntropySource.parse(spec)  # type: ignore[arg-type]
        assert type(spec).__name__ in str(caught.value)
        assert _quotes_none_of(str(caught.value))


def test_the_api_refuses_without_quoting() -> None:
    spec = BAD_SPECS["dice, last roll x"]
    attempts: list[Callable[[], object]] = [
        lambda: croupier.deal(entropy=spec),
        lambda: croupier.shuffle(range(5), entropy=spec),
        lambda: croupier.source(entropy=spec),
        lambda: make_source(entropy=spec),
    ]
    for attempt in attempts:
        with pytest.raises(CroupierError) as caught:
            attempt()
        assert _quotes_none_of(str(caught.value))


def test_repr_and_description_do_not_show_the_rolls() -> None:
    src = EntropySource.parse("dice:" + ROLLS)
    assert _quotes_none_of(repr(src)) and "30" in repr(src)
    assert _quotes_none_of(src.describe())


@pytest.mark.parametrize(
    "command",
    [["deal"], ["deal", "bridge", "--json"], ["shuffle", "--cards", "5"]],
    ids=["deal", "deal json", "shuffle"],
)
@pytest.mark.parametrize(
    "name", ["dice, last roll x", "hex, zz", "d20, a long token", "no colon", "unknown kind"]
)
def test_the_cli_refuses_a_bad_entropy_spec_in_one_line_without_quoting_it(
    cli: CliRunner, command: list[str], name: str
) -> None:
    spec = BAD_SPECS[name]
    r = cli([*command, "--entropy", spec])
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: ") and r.err.count("\n") == 1
    assert _quotes_none_of(r.err), r.err


def test_too_few_rolls_is_counted_not_quoted(cli: CliRunner) -> None:
    r = cli(["deal", "--entropy", "dice:" + ROLLS])
    assert r.code == 2 and "entropy exhausted: all 30 d6 roll(s) used" in r.err
    assert _quotes_none_of(r.err)


def test_bigdeal_entropy_strings_are_never_quoted(cli: CliRunner) -> None:
    # Big Deal's --entropy is free text hashed as it is; its only message is the warning
    weak = "hello " + ROLLS[:8]
    warning = entropy_warning([weak])
    assert warning is not None and _quotes_none_of(warning, (weak,))
    r = cli(["bigdeal", "--owner", "test", "--boards", "1", "--entropy", weak])
    assert r.code == 0 and r.err.startswith("warning: ") and _quotes_none_of(r.err, (weak,))
    with pytest.raises(CroupierError) as caught:
        seed_from_entropy([weak, 7])  # type: ignore[list-item]
    assert _quotes_none_of(str(caught.value), (weak,))
