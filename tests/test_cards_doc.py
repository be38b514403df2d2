"""docs/cards.md is executed: its Python examples as doctests, its console examples in-process."""

from __future__ import annotations

import doctest

import pytest

from tests.conftest import ROOT, CliRunner
from tests.doc_examples import Example, console_examples, lines_match

DOC = ROOT / "docs" / "cards.md"


def _examples(kind: str) -> list[Example]:
    return console_examples(DOC, kind)


def test_python_examples_pass() -> None:
    failures, attempted = doctest.testfile(
        str(DOC),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert attempted >= 15
    assert failures == 0


@pytest.mark.parametrize("args,expected", _examples("console"), ids=lambda v: " ".join(v))
def test_console_examples_print_what_the_doc_says(
    cli: CliRunner, args: list[str], expected: list[str]
) -> None:
    r = cli(args)
    assert r.code == 0, r.err
    assert lines_match(expected, r.out.splitlines())


@pytest.mark.parametrize("args,expected", _examples("text"), ids=lambda v: " ".join(v))
def test_error_examples_exit_2_with_the_documented_line(
    cli: CliRunner, args: list[str], expected: list[str]
) -> None:
    r = cli(args)
    assert r.code == 2
    assert r.out == ""
    assert r.err.splitlines() == expected
