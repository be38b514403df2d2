"""``--quiet`` means quiet: on every command, a successful run prints nothing on stderr.

Every leaf command runs with ``--quiet`` on the command lines of
``tests/test_cli_output.py`` (which print to standard output) and of
``tests/test_json_schemas.py`` (``--json``), in a fresh copy of the sample folder:
it must succeed (a verification that does not match: exit 1) with an empty
standard error, and print the same standard output as without ``--quiet``
wherever the output is reproducible.  Weak-seed warnings are checked apart: given
where boards must stay secret, never for simulations and shuffles.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.cli.app import leaf_commands, run
from tests.conftest import CliResult, CliRunner
from tests.test_cli_output import CASES, DETERMINISTIC
from tests.test_cli_output import sample_folder as sample_folder  # the shared sample files
from tests.test_json_schemas import JSON_CASES, VERIFY_FAILS, run_in_copy
from tests.test_json_schemas import samples as samples  # the sample files and a stats script

LEAVES = [" ".join(path) for path, _ in leaf_commands()]


def _cases() -> list[tuple[str, list[str]]]:
    found = [(name, args) for name, lines in CASES.items() for args in lines]
    found += [(name, [*args, "--json"]) for name, lines in JSON_CASES.items() for args in lines]
    return found


@pytest.fixture
def any_output(capsysbinary: pytest.CaptureFixture[bytes]) -> CliRunner:
    """Run ``croupier ARGS`` in-process; standard output may be binary (a PDF)."""

    def invoke(args: list[str]) -> CliResult:
        capsysbinary.readouterr()
        code = run(list(args))
        out, err = capsysbinary.readouterr()
        return CliResult(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))

    return invoke


def test_every_command_is_run_quietly() -> None:
    assert {name for name, _ in _cases()} == set(LEAVES)


@pytest.mark.parametrize(("name", "args"), _cases(), ids=lambda v: str(v))
def test_quiet_prints_nothing_on_stderr(
    any_output: CliRunner,
    samples: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    args: list[str],
) -> None:
    quiet = run_in_copy(any_output, samples, [*args, "--quiet"], tmp_path / "quiet", monkeypatch)
    failing = [a for a in args if a != "--json"] in VERIFY_FAILS
    assert quiet.code == (1 if failing else 0), quiet.err
    assert quiet.err == "", (name, quiet.err)
    if args in DETERMINISTIC:  # the output asked for stays, byte for byte
        loud = run_in_copy(any_output, samples, args, tmp_path / "loud", monkeypatch)
        assert loud.code == 0 and _timeless(loud.out) == _timeless(quiet.out)


def _timeless(out: str) -> list[str]:
    """The lines of an output but dealer's "Time needed" line (the one line that varies)."""
    return [line for line in out.splitlines() if not line.startswith("Time needed")]


def test_without_quiet_the_notes_are_there(
    cli: CliRunner, samples: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test above can fail: these commands do write notes or warnings when not quiet."""
    for i, args in enumerate(
        [
            ["deal", "-n", "2", "--seed", "x"],
            ["shuffle", "a", "b", "c"],
            ["dealer", "s.dlr", "--seed", "x"],
            ["convert", "session.pbn", "out.lin"],
            ["squaredeal", "make", "EV.sqd", "--keys", "EV.sqk", "--out", "made/"],
            ["handrecord", "cup1.pbn", "--out", "r.html"],
            ["page", "verify", "--out", "v.html"],
            ["bigdeal", "--owner", "t", "--entropy", "hello", "--boards", "1"],
            ["cards", "2c AS", "--sort", "seed"],  # a deprecated order name
        ]
    ):
        result = run_in_copy(cli, samples, args, tmp_path / str(i), monkeypatch)
        assert result.code == 0 and result.err != "", args


def test_quiet_is_not_an_error_for_items(cli: CliRunner) -> None:
    result = cli(["shuffle", "a", "b", "c", "--quiet", "--seed", "x"])
    assert result.code == 0 and result.err == "" and sorted(result.out.split()) == ["a", "b", "c"]
    assert result.out == cli(["shuffle", "a", "b", "c", "--seed", "x"]).out


def test_quiet_keeps_the_bits_asked_for(cli: CliRunner) -> None:
    result = cli(["shuffle", "--cards", "5", "--seed", "x", "--bits", "--quiet"])
    assert result.code == 0 and result.err == "" and "bits used:" in result.out
    result = cli(["deal", "-n", "2", "-f", "oneline", "--seed", "x", "--bits", "--quiet"])
    assert result.code == 0 and result.err.startswith("bits used:")


def test_quiet_and_a_progress_bar_are_not_both_asked(cli: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "s.dlr"
    script.write_text("produce 1\naction printoneline\n")
    result = cli(["dealer", str(script), "-m", "--quiet"])
    assert result.code == 2 and "--quiet" in result.err and len(result.err.splitlines()) == 1


# -- weak seeds: a warning where secrecy matters, none for simulations ------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--seed", "s1", "-f", "pbn"],
        ["deal", "--seed", "s1", "-f", "lin"],
        ["deal", "--seed", "s1", "--where", "hcp(north) >= 10", "-f", "pbn"],
        ["bigdeal", "--owner", "o", "--entropy", "hello", "--boards", "1"],
    ],
    ids=" ".join,
)
def test_weak_seeds_of_boards_are_warned_unless_quiet(cli: CliRunner, args: list[str]) -> None:
    loud = cli(args)
    assert loud.code == 0 and "warning: " in loud.err, loud.err
    quiet = cli([*args, "--quiet"])
    assert quiet.code == 0 and quiet.err == "" and quiet.out == loud.out


@pytest.mark.parametrize(
    "args",
    [
        ["shuffle", "--deck", "standard", "--seed", "s1"],
        ["shuffle", "--cards", "3000", "--seed", "s1", "--json"],
        ["deal", "-n", "3", "--seed", "s1"],
        ["deal", "-n", "3", "--seed", "s1", "--json"],
        ["analyze", "fisher-yates", "--cards", "5", "--trials", "20", "--seed", "s1"],
    ],
    ids=" ".join,
)
def test_simulations_do_not_warn_about_seeds(cli: CliRunner, args: list[str]) -> None:
    result = cli(args)
    assert result.code == 0 and "warning" not in result.err
    if "--json" in args and args[0] == "shuffle":
        assert json.loads(result.out)["result"]["warnings"] == []


def test_dealer_does_not_warn_about_seeds(cli: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "s.dlr"
    script.write_text("produce 2\naction printoneline\n")
    result = cli(["dealer", str(script), "--seed", "s1"])
    assert result.code == 0 and "warning" not in result.err
