"""Tournament texts with no UTF-8 encoding: one line naming the option, never a codec error.

``croupier-boards`` hashes the event name and the delayed value as UTF-8, so
text that has none -- a lone surrogate, which is how Python reads a
command-line byte that is not UTF-8 -- is refused, naming the option and the
character's position, and quoting neither the text nor the key.  SquareDeal
and Big Deal hash command-line bytes as they are (surrogate escapes become
their bytes again), so there only a surrogate that is no escape is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from croupier.errors import CroupierError
from croupier.tournament.bigdeal import BigDealStream, seed_from_entropy
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal import Phase, SquareDealEvent
from croupier.tournament.squaredeal_workflow import new_event
from croupier.tournament.verifiable import (
    commitment,
    delayed_value_bytes,
    make_boards,
    plan_commitment,
)
from croupier.tournament.verifiable_workflow import new_key_file
from tests.conftest import CliRunner

BYTE = b"\xff".decode("utf-8", "surrogateescape")
"""The byte 0xFF on a command line, as Python reads it: a lone surrogate (U+DCFF)."""
HIGH = "\ud800"
"""A lone surrogate that no command-line byte gives (only a program can pass it)."""
KEY = "5e" * 32
"""The key file's 64 hex digits: no message may show them."""


def _check(err: str, needle: str) -> None:
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert needle in err, err
    assert "codec" not in err and "surrogates not allowed" not in err, err
    assert KEY[:8] not in err and "\\udc" not in err and "\\ud8" not in err, err


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "cup.key"
    path.write_text(KEY + "\n")
    return path


def _make(key_file: Path, *extra: str, event: str = "Cup", dv: str = "15234.56") -> list[str]:
    return ["boards", "make", "--event", event, "--key-file", str(key_file), "--dv", dv,
            "--session", "1", *extra]  # fmt: skip


@pytest.mark.parametrize("bad", [BYTE, HIGH], ids=["command-line byte", "high surrogate"])
def test_boards_make_refuses_a_delayed_value_with_no_utf8_encoding(
    cli: CliRunner, key_file: Path, bad: str
) -> None:
    for extra in (["--boards", "1-4"], ["--plan", "1:1-4"]):
        r = cli(_make(key_file, *extra, dv="15234" + bad + ".56"))
        assert r.code == 2 and r.out == ""
        _check(r.err, "error: --dv is not valid text: character 6 has no UTF-8 encoding")


@pytest.mark.parametrize("bad", [BYTE, HIGH], ids=["command-line byte", "high surrogate"])
def test_boards_commands_refuse_an_event_with_no_utf8_encoding(
    cli: CliRunner, key_file: Path, tmp_path: Path, bad: str
) -> None:
    event = "Club" + bad + " Cup"
    needle = "error: --event is not valid text: character 5 has no UTF-8 encoding"
    r = cli(_make(key_file, "--boards", "1-4", event=event))
    assert r.code == 2
    _check(r.err, needle)
    r = cli(["boards", "commitment", "--event", event, "--key-file", str(key_file)])
    assert r.code == 2
    _check(r.err, needle)
    fresh = tmp_path / "fresh.key"
    r = cli(["boards", "new-key", "--event", event, "--key-file", str(fresh), "--plan", "1:1-4"])
    assert r.code == 2
    _check(r.err, needle)
    assert not fresh.exists()  # no key is left behind for an event that cannot be committed


def test_boards_verify_refuses_bad_text_with_exit_2_not_a_failed_check(
    cli: CliRunner, key_file: Path, tmp_path: Path
) -> None:
    made = cli(_make(key_file, "--plan", "1:1-2", "--out", str(tmp_path / "s1.pbn")))
    assert made.code == 0, made.err
    published = commitment_of(key_file, "Cup", "1:1-2")
    base = ["boards", "verify", "--key-file", str(key_file), "--commitment", published,
            "--session", "1", "--plan", "1:1-2", str(tmp_path / "s1.pbn")]  # fmt: skip
    assert cli([*base, "--event", "Cup", "--dv", "15234.56"]).code == 0
    r = cli([*base, "--event", "Cup", "--dv", "15234.56" + BYTE])
    assert r.code == 2
    _check(r.err, "error: --dv is not valid text: character 9 ")
    r = cli([*base, "--event", "Cup" + HIGH, "--dv", "15234.56"])
    assert r.code == 2
    _check(r.err, "error: --event is not valid text: character 4 ")


def commitment_of(key_file: Path, event: str, plan: str) -> str:
    return plan_commitment(bytes.fromhex(key_file.read_text()), event, BoardPlan.parse(plan))


def test_the_library_refuses_with_a_croupier_error_naming_the_parameter(tmp_path: Path) -> None:
    key = bytes.fromhex(KEY)
    plan = BoardPlan.parse("1:1-2")
    attempts: list[tuple[Callable[[], object], str]] = [
        (lambda: commitment(key, "Cup" + BYTE), "event= is not valid text: character 4 "),
        (lambda: plan_commitment(key, HIGH, plan), "event= is not valid text: character 1 "),
        (lambda: make_boards(key, "Cup" + BYTE, b"1", 1, [1]), "event= is not valid"),
        (lambda: delayed_value_bytes("12" + BYTE), "delayed_value= is not valid text"),
        (lambda: new_key_file(tmp_path / "k.key", "E" + HIGH), "event= is not valid"),
    ]
    for attempt, needle in attempts:
        with pytest.raises(CroupierError) as caught:
            attempt()
        message = str(caught.value)
        assert needle in message and "\n" not in message, message
        assert KEY[:8] not in message
    assert not (tmp_path / "k.key").exists()
    assert delayed_value_bytes("15234.56") == b"15234.56"
    assert delayed_value_bytes("Zürich 3") == "Zürich 3".encode()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--name", "Cup" + HIGH], "--name is not valid text: character 4 "),
        (["--name", "Cup", "--delayed-info", "DAX " + HIGH], "--delayed-info is not valid text"),
    ],
    ids=["name", "delayed info"],
)
def test_squaredeal_new_refuses_a_surrogate_that_is_no_command_line_byte(
    cli: CliRunner, tmp_path: Path, args: list[str], needle: str
) -> None:
    sqd = tmp_path / "ev.sqd"
    r = cli(["squaredeal", "new", str(sqd), *args, "--phase", "1:1-4:CUP#:Cup #"])
    assert r.code == 2
    _check(r.err, needle)
    assert not sqd.exists()


def test_squaredeal_phases_and_delayed_values_refuse_such_surrogates(
    cli: CliRunner, tmp_path: Path
) -> None:
    sqd = tmp_path / "ev.sqd"
    r = cli(["squaredeal", "new", str(sqd), "--name", "Cup", "--phase", "1:1-4:CUP#:Cup #" + HIGH])
    assert r.code == 2
    _check(r.err, "is not valid text: character 6 ")
    assert not sqd.exists()
    for phase in ("1:1-4:CUP#" + HIGH + ":Cup #", "1:1-4:CUP#:Cup #" + HIGH):
        with pytest.raises(CroupierError, match="is not valid text"):
            Phase.parse(phase)
    assert (
        cli(["squaredeal", "new", str(sqd), "--name", "Cup", "--phase", "1:1-4:C#:C #"]).code == 0
    )
    assert cli(["squaredeal", "publish", str(sqd)]).code == 0
    r = cli(["squaredeal", "set-dv", str(sqd), "15234" + HIGH])
    assert r.code == 2
    _check(r.err, "is not valid text: character 6 ")
    for make in (
        lambda: SquareDealEvent("Cup" + HIGH),
        lambda: SquareDealEvent("Cup", delayed_value="1" + HIGH),
        lambda: SquareDealEvent("Cup").with_delayed_value("1" + HIGH),
    ):
        with pytest.raises(CroupierError, match="is not valid text"):
            make()


def test_squaredeal_still_keeps_command_line_bytes_byte_for_byte(
    cli: CliRunner, tmp_path: Path
) -> None:
    sqd = tmp_path / "ev.sqd"
    r = cli(["squaredeal", "new", str(sqd), "--name", "Caf" + BYTE, "--phase", "1:1-4:C#:C #"])
    assert r.code == 0, r.err
    assert b"TN Caf\xff\n" in sqd.read_bytes()
    event = new_event(tmp_path / "two.sqd", "Caf" + BYTE, ["1:1:A#:A"], "DI " + BYTE)
    assert event.name == "Caf" + BYTE


def test_bigdeal_refuses_a_surrogate_that_is_no_command_line_byte(cli: CliRunner) -> None:
    base = ["bigdeal", "--boards", "1"]
    r = cli([*base, "--owner", "club" + HIGH, "--entropy", "x" * 40])
    assert r.code == 2
    _check(r.err, "--owner is not valid text: character 5 ")
    secret = "Xq7#vR2!mK9$pL4@wN8%tB3&zH6*cJ1^"
    r = cli([*base, "--owner", "club", "--entropy", secret, "--entropy", secret[:9] + HIGH])
    assert r.code == 2
    _check(r.err, "entropy string 2 is not valid text: character 10 ")
    assert secret[:6] not in r.err
    # command-line bytes are hashed as they are, as bigdealx does
    assert cli([*base, "--owner", "club" + BYTE, "--entropy", secret + BYTE]).code == 0
    with pytest.raises(CroupierError, match="owner= is not valid text"):
        BigDealStream(bytes(20), HIGH)
    with pytest.raises(CroupierError, match="entropy string 1 is not valid text"):
        seed_from_entropy([HIGH])
