"""``croupier shuffle --file``'s quick path: the same bytes, notes, errors and exit codes as the
full command line, without importing Typer."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.cli.shuffle_quick import FILE_OPTIONS, quick_values
from tests.quick_paths import run_command


def _run(
    path: str, args: list[str], cwd: Path, stdin: bytes = b""
) -> tuple[int, bytes, str, set[str]]:
    return run_command("shuffle", path, args, cwd, stdin)


CASES = [
    ["--file", "in.txt", "--seed", "s"],
    ["--file", "in.txt", "--seed=s", "-n", "2"],
    ["--file", "in.txt", "--seed", "s", "-n2", "--bits"],
    ["--file", "nul.bin", "--seed", "s", "-z"],
    ["--file", "in.txt", "--seed", "s", "--records", "4", "--memory", "1M"],
    ["--file", "in.txt", "--seed", "s", "--method", "auto", "--bits", "--quiet"],
    ["--file", "in.txt", "--seed", "s", "-o", "out.txt", "--quiet"],
    ["--file", "in.txt", "--seed", "s", "-o", "taken.txt"],
    ["--file", "missing.txt", "--seed", "s"],
    ["--file", "in.txt", "--memory", "lots"],
    ["--file", "-", "--seed", "s"],
    [
        "--seed",
        "s",
        "--count",
        "1",
        "--file",
        "in.txt",
        "--",
    ],
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
        (folder / "in.txt").write_bytes(b"one\ntwo\r\nthree\nfour\n")  # 21 bytes: 7 x 3
        (folder / "nul.bin").write_bytes(b"a\0bb\0ccc\0")
        (folder / "taken.txt").write_bytes(b"keep")
        code, out, err, modules = _run(path, args, folder, stdin=b"x\ny\nz\n")
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
        results.append((code, out, err, files))
        if path == "quick":
            assert not {"typer", "click", "pydantic"} & modules, args
        else:
            assert "typer" in modules
    assert results[0] == results[1]
    code, out, err, files = results[0]
    assert code in (0, 2) and err.count("\n") <= 2
    if code == 2:
        assert err.startswith("error: ") and err.count("\n") == 1
    assert files["taken.txt"] == b"keep" and files["in.txt"] == b"one\ntwo\r\nthree\nfour\n"


@pytest.mark.parametrize(
    "args",
    [
        ["a", "b"],
        ["--deck", "bridge"],
        ["--file", "x", "--json"],
        ["--file", "x", "--method", "fisher-yates"],
        ["--file", "x", "--entropy", "coins:HT"],
        ["--file", "x", "--help"],
        ["--file", "x", "-n", "-1"],
        ["--file", "x", "-n", "many"],
        ["--file"],
        ["--seed", "s"],
        ["--file", "x", "--quiet=yes"],
        ["--file", "x", "--bogus"],
        ["--file", "x", "-q"],
    ],
    ids=" ".join,
)
def test_anything_else_is_left_to_the_full_command_line(args: list[str]) -> None:
    assert quick_values(args) is None


def test_every_quick_flag_is_a_flag_of_the_shuffle_command() -> None:
    import click
    import typer

    from croupier.cli.app import build_app

    command = typer.main.get_command(build_app())
    with click.Context(command) as ctx:
        shuffle = command.get_command(ctx, "shuffle")  # type: ignore[attr-defined]
    params = {flag: p for p in shuffle.params for flag in (*p.opts, *p.secondary_opts)}
    for option in FILE_OPTIONS:
        for flag in option.flags:
            assert flag in params, flag
            param = params[flag]
            takes_value = not getattr(param, "is_flag", False)
            assert takes_value == (option.kind not in ("flag", "count")), flag
            assert param.name == option.dest or (option.dest, param.name) == (
                "out_path",
                "out_path",
            )
