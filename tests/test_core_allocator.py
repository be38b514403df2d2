"""The command line keeps the memory a run frees for its next arrays: counted as the
page faults of a pattern that a dealer run repeats (arrays of a few hundred KiB made and
dropped a batch at a time), in a fresh process; counts, not timings."""

from __future__ import annotations

import subprocess
import sys

import pytest

from croupier._core.allocator import keep_freed_memory
from croupier.cli import entry

PATTERN = """
import resource, sys
import numpy as np
if sys.argv[1] == "keep":
    from croupier._core.allocator import keep_freed_memory
    from croupier.cli.entry import MMAP_FROM, TRIM_FROM
    assert keep_freed_memory(MMAP_FROM, TRIM_FROM)
start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(100):
    batch = [np.ones(32768) for _ in range(8)]  # 8 arrays of 256 KiB
    del batch
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start)
"""


def _faults(mode: str) -> int:
    run = subprocess.run(
        [sys.executable, "-c", PATTERN, mode], capture_output=True, text=True, check=True
    )
    return int(run.stdout)


def test_freed_batches_are_reused_rather_than_asked_for_again() -> None:
    kept = _faults("keep")
    # 8 x 256 KiB is 512 pages: once for the first batch, then reused (a margin for numpy);
    # given back and faulted in again each time, 100 batches would be some 51,200
    assert kept < 5_000, kept
    assert _faults("plain") > 4 * kept  # (the allocator's own habit on this system)


def test_the_thresholds_are_checked() -> None:
    with pytest.raises(ValueError, match="positive"):
        keep_freed_memory(0, 1)
    assert entry.MMAP_FROM < entry.TRIM_FROM
