"""``croupier dealer`` on hostile or unusual scripts: huge frequency tables, a byte-order mark,
error messages that quote what they found.

* A ``frequency`` table keeps a counter for every cell of its range; a range past the limit
  is refused while the script is read, before any counter exists, in one line that names
  the action and the number of cells (the statistics classes refuse it too, for tables
  built without the parser).  Refusals that could allocate much on a broken build run in
  a child process with 1 GiB of address space.
* A script that starts with a UTF-8 byte-order mark (Windows editors write one) runs as
  the same script without it, from a file and from standard input.
* An error quotes short tokens (an operator, a one-letter name) as they are, and hides
  only runs that may be keys.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

import croupier
from croupier.simulate import parse_script
from croupier.simulate.ast import (
    MAX_FREQUENCY2D_CELLS,
    MAX_FREQUENCY_CELLS,
    Frequency,
    Frequency2D,
)
from croupier.simulate.parse import ScriptError
from croupier.simulate.stats import Frequency2DResult, StatisticsError
from tests.conftest import MEMORY_GUARD, CliRunner

SOURCE = Path(croupier.__file__).resolve().parents[1]
"""The folder the croupier under test is imported from (for child processes)."""

CHILD_TIMEOUT = 300.0
"""Seconds a child may take before it counts as hung (never a measure of speed)."""

PARSE_MEMORY = 64 << 20
"""Bytes the parser may allocate while refusing a script (its tables included): far
below what any of the refused tables would take (8 bytes a cell)."""


def _child(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python with 1 GiB of address space (a broken limit fails it
    with MemoryError instead of taking the machine's memory)."""
    return subprocess.run(
        [sys.executable, "-c", MEMORY_GUARD + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(SOURCE), "CROUPIER_NO_CACHE": "1"},
        check=False,
    )


def _cli_child(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``croupier ARGS`` in a child with 1 GiB of address space, its output as bytes."""
    run = "import sys; from croupier.cli.entry import main; sys.argv[0] = 'croupier'; main()"
    return subprocess.run(
        [sys.executable, "-c", MEMORY_GUARD + run, *args],
        input=stdin,
        capture_output=True,
        timeout=CHILD_TIMEOUT,
        env={**os.environ, "PYTHONPATH": str(SOURCE), "CROUPIER_NO_CACHE": "1"},
        check=False,
    )


def _peak_bytes(call: Callable[[], object]) -> tuple[BaseException | None, int]:
    """What ``call()`` raised (or ``None``) and the peak of Python allocations meanwhile."""
    tracemalloc.start()
    try:
        call()
    except Exception as exc:  # returned for the test to check
        raised: BaseException | None = exc
    else:
        raised = None
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return raised, peak


# -- frequency tables past the limit -------------------------------------------------------


TOO_LARGE = {
    "1-d": ("action frequency (hcp(north), 0, 100000000)\n", "100,000,001 cells"),
    "2-d": (
        "action frequency (hcp(north), 0, 100000, hcp(south), 0, 100000)\n",
        "100,001 × 100,001 = 10,000,200,001 cells",
    ),
    "2-d-labelled": (
        'action frequency "joint" (hcp(north), 0, 37, hcp(south), -2000000, 2000000)\n',
        "38 × 4,000,001 = 152,000,038 cells",
    ),
    "1-d-negative": ("action frequency (hcp(north), -2147483647, 2147483647)\n", "4,294,967,295"),
}


@pytest.mark.parametrize(("script", "count"), TOO_LARGE.values(), ids=TOO_LARGE)
def test_a_table_past_the_limit_is_refused_by_the_parser_before_allocating(
    script: str, count: str
) -> None:
    raised, peak = _peak_bytes(lambda: parse_script(script, filename="big.dlr"))
    assert isinstance(raised, ScriptError), raised
    message = str(raised)
    assert message.startswith("big.dlr:1:"), message
    assert "frequency" in message and count in message, message
    assert "\n" not in message
    assert peak < PARSE_MEMORY, peak


def test_the_limits_are_exact_cell_counts() -> None:
    """Up to the limit a table is accepted (parsed only: no deals are run)."""
    most = MAX_FREQUENCY_CELLS
    (one,) = parse_script(f"action frequency (hcp(north), 5, {4 + most})").actions
    assert isinstance(one, Frequency) and one.high - one.low + 1 == most
    with pytest.raises(ScriptError, match=f"{most + 1:,} cells"):
        parse_script(f"action frequency (hcp(north), 5, {5 + most})")
    side = 1
    while (side + 1) ** 2 <= MAX_FREQUENCY2D_CELLS:
        side += 1
    rows = MAX_FREQUENCY2D_CELLS // side  # rows × side <= the limit < (rows + 1) × side
    fits = f"action frequency (hcp(north), 1, {rows}, hcp(south), 0, {side - 1})"
    (two,) = parse_script(fits).actions
    assert isinstance(two, Frequency2D)
    assert (two.high - two.low + 1) * (two.high2 - two.low2 + 1) <= MAX_FREQUENCY2D_CELLS
    with pytest.raises(ScriptError, match=f"{(rows + 1) * side:,} cells"):
        parse_script(f"action frequency (hcp(north), 0, {rows}, hcp(south), 0, {side - 1})")


def test_tables_real_scripts_use_are_accepted_and_counted(cli: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "real.dlr"
    script.write_text(
        "produce 20\n"
        "action frequency (hcp(north), 0, 37, hcp(south), 0, 37),\n"
        "  frequency (100 * (hcp(north) - hcp(south)), -3700, 3700)\n"
    )
    result = cli(["dealer", str(script), "--seed", "hardening", "--json", "--quiet"])
    assert result.code == 0, result.err
    stats = [r for r in json.loads(result.out)["result"]["statistics"]]
    assert [s["kind"] for s in stats] == ["frequency2d", "frequency"]
    assert stats[0]["count"] == 20 and len(stats[0]["counts"]) == 40
    assert sum(row["count"] for row in stats[1]["rows"]) == 20


@pytest.mark.parametrize(
    "extra", [[], ["--json"], ["--format", "table"]], ids=["dealer", "json", "table"]
)
@pytest.mark.parametrize("name", ["1-d", "2-d"])
def test_the_command_refuses_it_in_one_line_exit_2(name: str, extra: list[str]) -> None:
    script, count = TOO_LARGE[name]
    done = _cli_child(["dealer", "-", "-p", "1", *extra], stdin=script.encode())
    err = done.stderr.decode()
    assert done.returncode == 2, err[-2000:]
    assert err.startswith("error: <stdin>:1:") and err.count("\n") == 1, err[-2000:]
    assert "frequency" in err and count in err
    assert done.stdout == b""


def test_the_statistics_classes_refuse_it_too_before_allocating() -> None:
    """Tables built without the parser (a syntax tree made by hand, an old cached script)."""
    done = _child(
        """
        from croupier.simulate.stats import FrequencyResult, StatisticsError
        try:
            FrequencyResult.of(None, "x", 0, 10**9, [1, 2, 3])
        except StatisticsError as exc:
            print("refused:", exc)
        """
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("refused: ") and "1,000,000,001 cells" in done.stdout
    raised, peak = _peak_bytes(
        lambda: Frequency2DResult.of(None, ("x", "y"), (0, 10**5), (0, 10**5), [1], [1])
    )
    assert isinstance(raised, StatisticsError), raised
    assert "10,000,200,001 cells" in str(raised)
    assert peak < 1 << 20, peak


# -- a byte-order mark ------------------------------------------------------------------------


BOM = b"\xef\xbb\xbf"
SCRIPT = b"produce 3\ncondition hcp(north) >= 12\naction printoneline, average hcp(south)\n"
LATIN1 = b"// donn\xe9es\nproduce 2\naction printoneline\n"  # not UTF-8: read as Latin-1
SEEDED = ["--seed", "bom", "-v"]


@pytest.mark.parametrize("body", [SCRIPT, LATIN1], ids=["utf-8", "latin-1"])
def test_a_script_file_starting_with_a_bom_runs_as_without_it(
    cli: CliRunner, tmp_path: Path, body: bytes
) -> None:
    plain, marked = tmp_path / "plain.dlr", tmp_path / "marked.dlr"
    plain.write_bytes(body)
    marked.write_bytes(BOM + body)
    without = cli(["dealer", str(plain), *SEEDED])
    with_bom = cli(["dealer", str(marked), *SEEDED])
    assert without.code == 0, without.err
    assert with_bom.code == 0, with_bom.err
    assert with_bom.out == without.out and with_bom.out.count("\n") >= 2


@pytest.mark.parametrize("body", [SCRIPT, LATIN1], ids=["utf-8", "latin-1"])
def test_a_script_on_stdin_starting_with_a_bom_runs_as_without_it(body: bytes) -> None:
    without = _cli_child(["dealer", "-", *SEEDED], stdin=body)
    with_bom = _cli_child(["dealer", "-", *SEEDED], stdin=BOM + body)
    assert without.returncode == 0, without.stderr.decode()[-2000:]
    assert with_bom.returncode == 0, with_bom.stderr.decode()[-2000:]
    assert with_bom.stdout == without.stdout and with_bom.stdout.count(b"\n") >= 2


def test_stdin_in_process_with_a_bom(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = []
    for data in (SCRIPT, BOM + SCRIPT):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        result = cli(["dealer", "-", *SEEDED])
        assert result.code == 0, result.err
        outputs.append(result.out)
    assert outputs[0] == outputs[1] and outputs[0]


def test_parse_script_leaves_out_a_leading_bom_and_counts_columns_after_it() -> None:
    text = SCRIPT.decode()
    assert parse_script("\ufeff" + text) == parse_script(text)
    with pytest.raises(ScriptError) as plain:
        parse_script("condition hcp(north) > x", filename="s.dlr")
    with pytest.raises(ScriptError) as marked:
        parse_script("\ufeffcondition hcp(north) > x", filename="s.dlr")
    assert str(marked.value) == str(plain.value)
    assert (marked.value.line, marked.value.column) == (1, len("condition hcp(north) > x"))


def test_a_bom_elsewhere_is_still_refused() -> None:
    with pytest.raises(ScriptError) as info:
        parse_script("produce 1\n\ufeffaction printall", filename="s.dlr")
    assert str(info.value).startswith("s.dlr:2:1:")


# -- what an error quotes ---------------------------------------------------------------------


SHORT_TOKENS = {
    # script, what the message must quote: each token sits in a run of letters, digits and
    # + / = _ - holding 8 hex digits or 20 characters, which hid it before
    "operator-after-a-name": ("condition x=12345678", "found '='"),
    "operator-in-a-long-run": ("condition a+b-c_d=e/f+g1h2i3j4k5l6", "found '='"),
    "one-letter-name": ("condition q+deadbeef", "unknown name 'q'"),
    "one-letter-name-in-a-definition": ("x = y+12345678\ncondition x", "unknown name 'y'"),
    "a-name-with-hex-digits": ("condition hcp(north)>=deadbeef12", "unknown name 'deadbeef12'"),
    "a-long-snake-case-name": (
        "condition north_has_5_spades_and_12_hcp",
        "unknown name 'north_has_5_spades_and_12_hcp'",
    ),
}


@pytest.mark.parametrize(("script", "shown"), SHORT_TOKENS.values(), ids=SHORT_TOKENS)
def test_tokens_that_cannot_be_keys_are_quoted(script: str, shown: str) -> None:
    with pytest.raises(ScriptError) as info:
        parse_script(script)
    message = str(info.value)
    assert shown in message, message
    assert "hidden" not in message, message


def test_the_command_quotes_a_one_character_token(cli: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "s.dlr"
    script.write_text("condition hcp(north) > 10 && q+deadbeef\n")
    result = cli(["dealer", str(script)])
    assert result.code == 2
    assert result.err.startswith("error: s.dlr:1:") and "'q'" in result.err, result.err
    assert "hidden" not in result.err


HEX = "6b1f0e38d9c27a45f10e9b8a7c36d25e4f3a1b0c9d8e7f6a5b4c3d2e1f0a9b8c"
KEYS = {
    "hex-128": HEX[:32],
    "hex-256": HEX,
    "hex-upper-after-a-name": "x = 1\ncondition x + " + HEX.upper()[:40],
    "base64": "J4aytsBk5EVTp3H7+0eppHQAC7PRzVdy7GJzVjlMvbG8PhoIY78Qf1NjyVVUhEWW",
    "base32": "condition GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
    "squaredeal": "condition " + "Ab3Cd4Ef5Gh6" * 5,
}


@pytest.mark.parametrize("secret", KEYS.values(), ids=KEYS)
def test_runs_that_may_be_keys_are_still_hidden(secret: str) -> None:
    with pytest.raises(ScriptError) as info:
        parse_script(secret)
    message = str(info.value)
    key = secret.rsplit(" ", 1)[-1]
    windows = {key[i : i + 4] for i in range(len(key) - 3)}
    assert not [w for w in windows if w in message], message
    assert "characters hidden" in message, message
