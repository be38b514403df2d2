"""``croupier dealer``'s quick path starts with numpy and the simulation alone: no command line
framework, no plotting or statistics library, no file formats it does not write, and (the
second time a script runs) not even the parser."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.quick_paths import run_command

SCRIPT = "generate 1\nproduce 1\ncondition hcp(north) > 10\naction printall\n"

NEVER = (
    "typer",
    "click",
    "pydantic",
    "rich",
    "scipy",
    "matplotlib",
    "numba",
    "dask",
    "numpy.ma",
    "numpy.random",
    "croupier.formats.pbn",
    "croupier.formats.lin",
    "croupier.bulk.writers.formats",
    "croupier.runs.run",
    "socket",
    "tempfile",
    "pathlib",
    "croupier.files",
    "croupier.cli.failures",
    "concurrent.futures",
)
"""Modules a one-deal run must not import (each costs start-up time)."""


def _modules(tmp_path: Path, script: Path, *args: str) -> set[str]:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "CROUPIER_NO_CACHE": ""}
    code, out, err, modules = run_command(
        "dealer", "quick", [str(script), "--seed", "start-up", *args], tmp_path, env=env
    )
    assert code == 0, err
    assert b"Generated 1 hands" in out
    return modules


@pytest.mark.parametrize("args", [(), ("--quiet",)])
def test_a_one_deal_run_imports_only_what_it_needs(tmp_path: Path, args: tuple[str, ...]) -> None:
    script = tmp_path / "one.dlr"
    script.write_text(SCRIPT)
    first = _modules(tmp_path, script, *args)  # parses the script, and keeps it in the cache
    again = _modules(tmp_path, script, *args)
    for loaded, allowed in ((first, {"tempfile"}), (again, set())):  # the first run saves
        assert "numpy" in loaded and "croupier.simulate.run" in loaded
        assert not loaded & (set(NEVER) - allowed), sorted(loaded & (set(NEVER) - allowed))
    assert "lark" in first
    assert "lark" not in again  # the script's syntax tree came from the cache


def test_the_bitmasks_of_a_batch_come_from_the_compiled_core() -> None:
    # numba is gone: the compiled core (built with the package) makes the bitmasks of any
    # batch, and nothing loads numba
    code = (
        "import sys\n"
        "from croupier.bulk import deal_array\n"
        "from croupier.bulk.array import DealArray\n"
        "d = deal_array(70_000, seed='masks')\n"
        "plain = DealArray(d.layout, d.piles)\n"
        "print(bool((plain.masks() == d.masks()).all()), 'numba' in sys.modules,\n"
        "      'croupier._core.bulk_kernels' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False", "True"]


def test_the_compiled_bitmasks_are_the_piles() -> None:
    from croupier.bulk import deal_array
    from croupier.bulk.array import DealArray, pile_masks

    d = deal_array(20_000, seed="compiled masks")
    bits = np.uint64(1) << np.arange(52, dtype=np.uint64)
    expected = np.stack([((d.piles == p) * bits).sum(axis=1, dtype=np.uint64) for p in range(4)])
    assert (pile_masks(d.piles, 4) == expected.T).all()
    assert (DealArray(d.layout, d.piles).masks() == expected.T).all()
    assert (d.masks() == expected.T).all()  # the masks the generator handed over
