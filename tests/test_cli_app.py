"""The command-line shell: registry, lazy loading, one-line usage errors, shared flags."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
import typer
from typer import _click as click
from typer.core import TyperOption

from croupier.cli.app import COMMANDS, flag_for_parameters, leaf_commands, run
from croupier.cli.options import PROGRAM_FLAGS, SHORT_FLAGS
from tests.conftest import CliRunner

LEAVES = leaf_commands()
LEAF_IDS = [" ".join(path) for path, _ in LEAVES]


def test_registry_covers_every_command_of_every_module() -> None:
    """No command is defined in a module but missing from the registry (or vice versa)."""
    registered: dict[tuple[str, str], set[str]] = {}
    for name, entry in COMMANDS.items():
        if not entry.group:
            registered.setdefault((entry.module, entry.attribute), set()).add(name)
    for (module_name, attribute), names in registered.items():
        group = typer.main.get_group(getattr(importlib.import_module(module_name), attribute))
        assert set(group.commands) == names, f"{module_name}.{attribute}"


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=LEAF_IDS)
def test_bad_option_is_one_line_exit_2(cli: CliRunner, path: list[str], command: object) -> None:
    result = cli([*path, "--no-such-option-anywhere"])
    assert result.code == 2
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith(f"error: croupier {' '.join(path)}: ")
    assert "--no-such-option-anywhere" in lines[0]


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=LEAF_IDS)
def test_every_command_has_json(path: list[str], command: click.Command) -> None:
    flags = {opt for param in command.params for opt in param.opts}
    assert "--json" in flags, f"croupier {' '.join(path)} has no --json"


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=LEAF_IDS)
def test_short_flags_mean_the_same_everywhere(path: list[str], command: click.Command) -> None:
    for param in command.params:
        if not isinstance(param, TyperOption):
            continue
        shorts = [o for o in param.opts if len(o) == 2 and o.startswith("-")]
        longs = [o for o in param.opts if o.startswith("--")]
        program = PROGRAM_FLAGS.get(" ".join(path), {})
        for short in shorts:
            if short in program:
                assert program[short] in longs, f"{short} of croupier {' '.join(path)}"
                continue
            assert short in SHORT_FLAGS, f"{short} of croupier {' '.join(path)} is not in the table"
            assert SHORT_FLAGS[short] in longs, (
                f"{short} means {longs} in croupier {' '.join(path)}, "
                f"but {SHORT_FLAGS[short]} everywhere else"
            )


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=LEAF_IDS)
def test_help_has_examples(cli: CliRunner, path: list[str], command: object) -> None:
    result = cli([*path, "--help"])
    assert result.code == 0
    assert "Examples" in result.out and "croupier " + path[0] in result.out


@pytest.mark.parametrize("args", [["nosuchcommand"], ["deal", "--count"], ["cards"]])
def test_usage_errors_are_one_line(cli: CliRunner, args: list[str]) -> None:
    result = cli(args)
    assert result.code == 2
    assert len(result.err.splitlines()) == 1 and result.err.startswith("error: ")


def test_misspelt_command_gets_a_suggestion(cli: CliRunner) -> None:
    result = cli(["dael"])
    assert result.code == 2 and "did you mean 'deal'" in result.err


def test_debug_is_a_real_option(cli: CliRunner) -> None:
    # After "--", "--debug" is a card to parse, not the global option: a one-line error.
    result = cli(["cards", "--", "--debug"])
    assert result.code == 2 and result.err.startswith("error: bad card '--debug'")
    # As the global option it shows the traceback (the exception propagates).
    with pytest.raises(ValueError, match="bad card 'XX'"):
        run(["--debug", "cards", "XX"])


def test_library_parameter_names_become_flags(cli: CliRunner) -> None:
    result = cli(["deal", "--players", "0", "poker"])
    assert result.code == 2
    assert "--players" in result.err and "players=" not in result.err


def test_flag_mapping_leaves_other_words_alone() -> None:
    command = COMMANDS["deal"].load("deal")
    assert flag_for_parameters("count= must be at least 1", command) == "--count must be at least 1"
    assert flag_for_parameters("nosuch= stays", command) == "nosuch= stays"
    assert flag_for_parameters("a=b inside text", None) == "a=b inside text"


def test_root_help_imports_no_command_module() -> None:
    code = (
        "import sys\n"
        "from croupier.cli.app import run\n"
        "run(['--help'])\n"
        "print(sorted(m for m in sys.modules if m.endswith('_cmd')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_root_help_lists_every_command(cli: CliRunner) -> None:
    result = cli(["--help"])
    assert result.code == 0
    for name in COMMANDS:
        assert f"  {name} " in result.out


def test_no_arguments_prints_help(cli: CliRunner) -> None:
    result = cli([])
    assert result.code == 0 and "Commands" in result.out


def test_cards_accepts_one_or_several_arguments(cli: CliRunner) -> None:
    one = cli(["cards", "AS kh 10d"])
    several = cli(["cards", "AS", "kh", "10d"])
    assert one.code == several.code == 0
    assert one.out == several.out == "AS KH TD\n"


def test_deprecated_names_warn_on_stderr(cli: CliRunner) -> None:
    old = cli(["cards", "2c AS", "--sort", "seed"])
    new = cli(["cards", "2c AS", "--sort", "suit-ace-low"])
    assert old.code == new.code == 0 and old.out == new.out
    assert old.err.splitlines() == [
        "warning: order name 'seed' is deprecated; use 'suit-ace-low' (the same order)"
    ]
    assert new.err == ""


def test_walk_includes_the_board_file_converter() -> None:
    # croupier convert is registered like every command and walked by the tests above
    assert "convert" in LEAF_IDS
    assert COMMANDS["convert"].module == "croupier.cli.convert_cmd"
