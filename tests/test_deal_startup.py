"""``croupier deal``'s quick path: the same bytes, notes, errors and exit codes as the full
command line, without importing Typer, and a short run imports only what it needs."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from croupier.cli.deal_quick import (
    DEAL_OPTIONS,
    ENGINE_NAMES,
    FORMAT_NAMES,
    STRATEGY_NAMES,
    quick_values,
)
from tests.quick_paths import run_command

NEVER = (
    "typer",
    "click",
    "pydantic",
    "rich",
    "croupier.cli.app",
    "croupier.cli.deal_cmd",
    "croupier.cli.failures",
    "croupier.simulate",
    "croupier.formats.pbn",
    "croupier.bulk.writers",
    "croupier.files",
    "pathlib",
    "json",
    "csv",
    "scipy",
    "matplotlib",
    "numba",
    "dask",
)
"""Modules a default ``croupier deal`` must not import (each costs start-up time)."""


def _run(path: str, args: list[str], cwd: Path) -> tuple[int, bytes, str, set[str]]:
    return run_command("deal", path, args, cwd)


def test_a_default_deal_imports_only_what_it_needs(tmp_path: Path) -> None:
    code, out, err, modules = _run("quick", [], tmp_path)
    assert code == 0 and out.decode().startswith("bridge deal "), err
    assert "numpy" in modules and "croupier.runs.request" in modules
    assert not modules & set(NEVER), sorted(modules & set(NEVER))


CASES = [
    ["--seed", "s"],
    ["--seed=s", "-n", "3", "--format", "pbn-deal"],
    ["holdem", "-p", "6", "--seed", "s", "--show-stock"],
    ["--hands", "7,7,7", "-n2", "--seed", "s", "--bits"],
    ["--seed", "s", "-n", "4", "-f", "PBN", "-e", "Club night", "--first-board", "9", "--lf"],
    ["--seed", "s", "-n", "2", "--format", "lin"],
    ["--seed", "s", "-n", "2", "--json"],
    ["--seed", "s", "-n", "2", "--format", "csv", "--scheme", "BigDeal"],
    ["--seed", "s", "--engine", "deal", "--method", "block", "--format", "jsonl"],
    ["--entropy", "coins:" + "HT" * 60, "--format", "oneline"],
    ["war", "--seed", "s", "--quiet"],
    ["--seed", "s", "--format", "pbn-games", "-n", "2"],
    ["--seed", "s", "--where", "hcp(north) >= 20", "-n", "2", "--format", "oneline"],
    ["--seed", "s", "-o", "deals.pbn", "-f", "pbn"],
    ["--seed", "s", "-o", "taken.txt"],
    ["--seed", "s", "--format", "npy"],
    ["--players", "0", "poker"],
    ["--seed", "s", "--engine", "bulk", "--method", "block"],
    ["tarot"],
    ["--seed", "s", "--json", "--format", "pbn"],
    ["--seed", "s", "--", "skat"],
    ["--deck", "euchre", "--hands", "5,5", "--seed", "s", "--scheme", "bigdeal"],
]


@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_the_quick_path_says_what_the_full_command_line_says(
    args: list[str], tmp_path: Path
) -> None:
    assert quick_values(args) is not None  # the quick path reads these
    results = []
    for path in ("quick", "typer"):
        folder = tmp_path / path
        folder.mkdir()
        (folder / "taken.txt").write_bytes(b"keep")
        code, out, err, modules = _run(path, args, folder)
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
        results.append((code, out, err, files))
        if path == "quick":
            assert not {"typer", "click", "pydantic"} & modules, args
        else:
            assert "typer" in modules
    assert results[0] == results[1]
    code, out, err, files = results[0]
    assert code in (0, 2) and files["taken.txt"] == b"keep"
    if code == 2:
        assert err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["-h"],
        ["-n", "0"],
        ["-n", "-1"],
        ["-n", "many"],
        ["--count"],
        ["bridge", "skat"],
        ["--format", "xml"],
        ["--engine", "fast"],
        ["--strategy", "magic", "--where", "1"],
        ["--workers", "2"],
        ["--scheduler", "tcp://x:1"],
        ["--chunk", "10"],
        ["--json=yes"],
        ["--bogus"],
        ["-q"],
        ["-p", "٣"],
    ],
    ids=" ".join,
)
def test_anything_else_is_left_to_the_full_command_line(args: list[str]) -> None:
    assert quick_values(args) is None


def test_the_table_is_the_deal_command_s_options() -> None:
    import typer

    from croupier.cli import deal_cmd
    from croupier.runs import ENGINES
    from croupier.simulate.run import Strategy

    deal = typer.main.get_group(deal_cmd.app).commands["deal"]
    params = {p.name: p for p in deal.params if p.name != "game"}
    table = {option.dest: option for option in DEAL_OPTIONS}
    assert set(table) == set(params)
    for name, option in table.items():
        param = params[name]
        assert set(option.flags) == {*param.opts, *param.secondary_opts}, name
        takes_value = not getattr(param, "is_flag", False)
        assert takes_value == (option.kind not in ("flag", "count")), name
        if option.kind in ("flag", "text", "choice", "int") and option.dest != "count":
            assert option.default == param.default, name
    assert params["count"].default == table["count"].default == 1
    assert FORMAT_NAMES == deal_cmd.FORMAT_NAMES
    assert tuple(ENGINES) == ENGINE_NAMES and get_args(Strategy) == STRATEGY_NAMES
