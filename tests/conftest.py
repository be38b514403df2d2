"""Shared test helpers."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from croupier.cli.app import run

# No per-example deadline: timings on a busy 2-core machine are no test of
# correctness.  In CI the examples are derandomized, so a run is repeatable.
settings.register_profile("croupier", deadline=None, print_blob=True)
settings.register_profile("croupier-ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("croupier-ci" if os.environ.get("CI") else "croupier")

ROOT = Path(__file__).resolve().parent.parent
VECTORS = Path(__file__).resolve().parent / "vectors"


@dataclass(frozen=True)
class CliResult:
    """What one ``croupier`` invocation printed and returned."""

    code: int
    out: str
    err: str


CliRunner = Callable[[Sequence[str]], CliResult]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """Run ``croupier ARGS...`` in-process and capture its output."""

    def invoke(args: Sequence[str]) -> CliResult:
        capsys.readouterr()
        code = run(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke
