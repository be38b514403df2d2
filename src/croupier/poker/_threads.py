"""Rows of a poker kernel split among threads (the kernels release the interpreter lock).

A call with at least :data:`PARALLEL_FROM` rows for each part is cut into as many parts
as the process may use cores (at most :data:`MAX_THREADS`); the first part runs in the
calling thread, the others in worker threads kept for the process (made again in a
forked child).  Shorter calls run in the calling thread alone: starting a thread would
cost more than it saves.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar

__all__ = ["MAX_THREADS", "PARALLEL_FROM", "cores", "parts", "run_parts"]

PARALLEL_FROM = 1 << 16
"""Rows each part must have before a call is split (about a third of a millisecond)."""

MAX_THREADS = 8
"""The most parts a call is cut into."""

T = TypeVar("T")


def cores() -> int:
    """How many cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


def parts(n: int, least: int = PARALLEL_FROM) -> list[tuple[int, int]]:
    """Rows ``0 .. n - 1`` as consecutive ``(lo, hi)`` parts of at least ``least`` rows
    each (one part when ``n`` is short or there is one core).

    >>> parts(10, 100), parts(0, 100)
    ([(0, 10)], [(0, 0)])
    """
    count = max(1, min(cores(), MAX_THREADS, n // max(least, 1)))
    bounds = [n * i // count for i in range(count + 1)]
    return list(itertools.pairwise(bounds))


class _Pool:
    """The worker threads, kept for the process (made again after a fork)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pool: Executor | None = None
        self.workers = 0

    def get(self, workers: int) -> Executor:
        with self.lock:
            if self.pool is None or self.workers < workers:
                from concurrent.futures import ThreadPoolExecutor

                old = self.pool
                self.pool = ThreadPoolExecutor(workers, thread_name_prefix="croupier-poker")
                self.workers = workers
                if old is not None:
                    old.shutdown(wait=False)
            return self.pool

    def forget(self) -> None:
        """In a forked child: the parent's threads are gone, so is their pool."""
        self.lock = threading.Lock()
        self.pool = None
        self.workers = 0


_POOL = _Pool()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOL.forget)


def run_parts(work: Callable[[int, int], T], n: int, least: int = PARALLEL_FROM) -> list[T]:
    """``work(lo, hi)`` for each of :func:`parts` of ``n`` rows, in order of the parts."""
    cut = parts(n, least)
    if len(cut) == 1:
        return [work(*cut[0])]
    pool = _POOL.get(len(cut) - 1)
    later = [pool.submit(work, lo, hi) for lo, hi in cut[1:]]
    first = work(*cut[0])
    return [first, *(f.result() for f in later)]
