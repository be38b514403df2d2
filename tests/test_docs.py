"""The runnable examples of the docs pages are executed, so the docs cannot rot.

``>>>`` examples run as doctests; every ``$ croupier ...`` line in a
```` ```console ```` block must exit 0 and, where the page shows output, print
exactly that.  (``docs/cards.md`` and ``docs/fairness.md`` have their own, more
detailed tests.)
"""

from __future__ import annotations

import doctest

import pytest

from tests.conftest import ROOT, CliRunner
from tests.doc_examples import console_examples, example_id, lines_match

PAGES = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in {"cards.md", "fairness.md"})
EXAMPLES: list[tuple[str, list[str], list[str]]] = [
    (page.name, args, expected) for page in PAGES for args, expected in console_examples(page)
]


def test_pages_are_found() -> None:
    assert len(PAGES) >= 8
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_python_examples_pass(page: object) -> None:
    failures, _attempted = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert failures == 0


@pytest.mark.parametrize("page,args,expected", EXAMPLES, ids=example_id)
def test_console_examples_run_as_shown(
    cli: CliRunner, page: str, args: list[str], expected: list[str]
) -> None:
    result = cli(args)
    assert result.code == 0, f"{page}: {result.err}"
    if expected:
        assert lines_match(expected, result.out.rstrip("\n").splitlines()), page
