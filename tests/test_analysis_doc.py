"""docs/fairness.md is checked: its console output, its figure commands and its table of results."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from croupier.analysis.run import exact_report
from tests.conftest import ROOT, CliRunner
from tests.doc_examples import console_examples, example_id, lines_match

DOC = ROOT / "docs" / "fairness.md"
TEXT = DOC.read_text(encoding="utf-8")


def test_the_line_matcher_can_fail() -> None:
    assert lines_match(["a (...)", "...", "z"], ["a (x y)", "b", "c", "z"])
    assert not lines_match(["a", "z"], ["a", "b", "z"])
    assert not lines_match(["a (...)"], ["a x"])
    assert lines_match(["a", "b"], ["a", "b"]) and not lines_match(["a", "b"], ["a", "c"])


@pytest.mark.parametrize("args,expected", console_examples(DOC), ids=example_id)
def test_console_examples_print_what_the_page_says(
    cli: CliRunner, args: list[str], expected: list[str]
) -> None:
    r = cli(args)
    assert r.code == 0, r.err
    assert lines_match(expected, r.out.splitlines()), r.out


def test_every_figure_on_the_page_has_the_command_that_draws_it(
    cli: CliRunner, tmp_path: Path
) -> None:
    images = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", TEXT)
    commands = [shlex.split(c) for c in re.findall(r"^croupier (.*)$", TEXT, re.MULTILINE)]
    assert len(images) == len(commands) == 5
    for image, words in zip(images, commands, strict=True):
        at = words.index("--plot")
        assert words[at + 1] == f"docs/{image}" and "--overwrite" in words
        if "--trials" in words:  # the Monte Carlo figure: same command on fewer trials
            words[words.index("--trials") + 1] = "500"
        out = tmp_path / Path(image).name
        words[at + 1] = str(out)
        r = cli(words)
        assert r.code == 0, (words, r.err)
        assert out.read_bytes()[:4] == b"\x89PNG" or b"<svg" in out.read_bytes()[:400]
        assert (ROOT / "docs" / image).exists()


def _table_rows() -> list[tuple[list[str], str, str]]:
    section = TEXT.split("| method | what it is |")[1].split("\n\n")[0]
    rows = []
    for line in section.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append((re.findall(r"`([^`]+)`", cells[0]), cells[2], cells[3]))
    return rows


@pytest.mark.parametrize(
    "names,reachable,tv",
    [r for r in _table_rows() if "time-seeded-32" not in r[0]],
    ids=lambda v: ",".join(v) if isinstance(v, list) else v,
)
def test_table_of_eight_card_results_is_what_croupier_computes(
    names: list[str], reachable: str, tv: str
) -> None:
    for name in names:
        if tv == "a range from 0":  # cut-off walks: a shallower walk keeps the test fast
            report = exact_report(name, 8, max_leaves=50_000)
            assert report.verdict != "biased" and report.tv_bounds[0] == 0
            assert report.space == int(reachable.split()[-1]), name
            continue
        report = exact_report(name, 8)
        assert report.reachable == int(reachable.split()[0]), name
        shown = tv.strip("*").split()[0]
        assert round(float(report.tv), len(shown.split(".")[-1]) if "." in shown else 0) == float(
            shown
        ), name
