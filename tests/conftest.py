"""Shared test helpers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from croupier.cli.app import run

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
