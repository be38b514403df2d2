"""The README's examples are executed, so the front page cannot rot.

* ``>>>`` examples run as doctests;
* in ```` ```console ```` blocks, every ``$ croupier ...`` line is run in-process
  and must exit 0 and print exactly the lines that follow it (up to the next
  ``$`` line); a command followed by no lines only has to succeed.
"""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys

import pytest

from tests.conftest import ROOT, CliRunner
from tests.doc_examples import Example, console_examples, example_id, lines_match

README = ROOT / "README.md"


def _console_examples() -> list[Example]:
    return console_examples(README)


def test_readme_python_examples_pass() -> None:
    failures, attempted = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert attempted > 0
    assert failures == 0


def test_readme_has_console_examples() -> None:
    assert len(_console_examples()) >= 3


@pytest.mark.parametrize("args,expected", _console_examples(), ids=example_id)
def test_readme_console_example(cli: CliRunner, args: list[str], expected: list[str]) -> None:
    result = cli(args)
    assert result.code == 0, result.err
    if expected:
        assert lines_match(expected, result.out.rstrip("\n").splitlines())


def test_readme_main_command_deals() -> None:
    """The first set-up command ends in ``croupier deal``; run that part as written."""
    text = README.read_text(encoding="utf-8")
    block = text.split("<!-- main-command -->", 1)[1]
    command = re.search(r"```sh\n(.+?)\n```", block, re.DOTALL)
    assert command is not None
    last = command.group(1).split("&&")[-1].strip()
    words = shlex.split(last)
    assert words[0].endswith("croupier") and words[1] == "deal", last
    proc = subprocess.run(
        [sys.executable, "-m", "croupier", *words[1:]], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert "North" in proc.stdout and "South" in proc.stdout
