"""Running croupier's chunked work on Dask (optional extra ``cluster``): clients and chunks.

Long runs split into **chunks**: chunk ``c`` is rows ``c * C`` to
``(c + 1) * C - 1`` of one numbered stream (``C`` the chunk size), so every
chunk is an independent, pure task keyed by its index, and results merged in
chunk order never depend on the number of workers, the scheduling order or a
worker lost on the way (its tasks run again and give the same rows).

:func:`open_client` gives a ``dask.distributed`` ``Client``: a ``LocalCluster``
of ``workers`` processes of one thread each (no dashboard, quiet logs), a
client of the running cluster at ``scheduler`` (``tcp://host:8786``), or the
caller's own ``client``.  ``dask`` is imported only there, so croupier works
without the extra; without it, :class:`ClusterUnavailable` names
``pip install 'croupier[cluster]'``.  :func:`in_order` runs chunk tasks with a
bounded window of tasks ahead and yields their results in chunk order.

The planning helpers need no cluster:

>>> chunk_ranges(10, 4)
[(0, 4), (4, 8), (8, 10)]
>>> chunk_count(10**9, 2**20)
954
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from croupier.errors import CroupierError, MissingExtraError

__all__ = [
    "INSTALL_HINT",
    "ClusterError",
    "ClusterUnavailable",
    "InlineClient",
    "chunk_count",
    "chunk_ranges",
    "in_order",
    "open_client",
    "require_distributed",
    "task_slots",
]

INSTALL_HINT: Final = "pip install 'croupier[cluster]'"
"""What to run to get Dask's distributed scheduler."""

MAX_WORKERS: Final = 1024
"""The most worker processes ``workers=`` starts on this machine."""

_DASK_MODULE = "distributed"
_QUIET_LOGGERS = ("distributed", "tornado", "asyncio", "bokeh")


class ClusterError(CroupierError):
    """A cluster request that cannot be met (bad ``workers=``, unreachable scheduler ...)."""


class ClusterUnavailable(MissingExtraError):
    """Dask's ``distributed`` package is not installed; the message names the extra.

    >>> raise ClusterUnavailable.missing()
    Traceback (most recent call last):
    ...
    croupier.cluster.ClusterUnavailable: running on a Dask cluster needs ... 'croupier[cluster]'
    """

    @classmethod
    def missing(cls) -> ClusterUnavailable:
        """The error for a missing ``distributed`` package.

        >>> "pip install 'croupier[cluster]'" in str(ClusterUnavailable.missing())
        True
        """
        return cls(
            "running on a Dask cluster needs the dask.distributed package, which is not "
            f"installed: {INSTALL_HINT}"
        )


def require_distributed() -> Any:
    """The ``distributed`` module, or :class:`ClusterUnavailable` naming the extra.

    >>> require_distributed().__name__
    'distributed'
    """
    try:
        return importlib.import_module(_DASK_MODULE)
    except ImportError as exc:
        raise ClusterUnavailable.missing() from exc


def chunk_count(total: int, chunk: int) -> int:
    """How many chunks of ``chunk`` rows cover ``total`` rows (the last may be shorter).

    >>> chunk_count(0, 5), chunk_count(5, 5), chunk_count(6, 5)
    (0, 1, 2)
    """
    _check_chunk(chunk)
    return -(-total // chunk)


def chunk_ranges(total: int, chunk: int, start: int = 0) -> list[tuple[int, int]]:
    """The row ranges ``[start, stop)`` of chunks ``start`` onwards of a ``total``-row run.

    >>> chunk_ranges(7, 3, start=1)
    [(3, 6), (6, 7)]
    >>> chunk_ranges(7, 0)
    Traceback (most recent call last):
    ...
    croupier.cluster.ClusterError: chunk=0 must be a number of rows of at least 1
    """
    return [
        (c * chunk, min(total, (c + 1) * chunk)) for c in range(start, chunk_count(total, chunk))
    ]


def _check_chunk(chunk: int) -> None:
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ClusterError(f"chunk={chunk!r} must be a number of rows of at least 1")


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    """Dask's own loggers at ERROR while the cluster runs (a lost worker is no news)."""
    saved = {}
    for name in _QUIET_LOGGERS:
        logger = logging.getLogger(name)
        saved[name] = logger.level
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


def _check_address(scheduler: str) -> None:
    """Refuse a ``scheduler=`` that is no address before a ``Client`` is made: Dask's
    ``Client`` raises ``ValueError`` for one, and the half-made client then blocks for
    seconds while it is collected."""
    comm = importlib.import_module("distributed.comm")
    try:
        protocol, _ = comm.parse_address(scheduler)
        if protocol in {"tcp", "tls", "ws", "wss"}:
            comm.get_address_host_port(scheduler)
    except ValueError as exc:  # no port, a port that is no number
        raise ClusterError(
            f"scheduler={scheduler!r} is not an address such as 'tcp://host:8786' ({exc})"
        ) from None


@contextlib.contextmanager
def open_client(
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
) -> Iterator[Any]:
    """A ``dask.distributed`` ``Client`` for the ``with`` block; give exactly one source.

    ``workers=N`` starts a ``LocalCluster`` of N worker processes with one
    thread each (no dashboard, quiet logs) and shuts it down afterwards;
    ``scheduler="tcp://host:8786"`` connects to a running cluster (its workers
    need croupier installed); ``client=`` uses the caller's client and leaves
    it open.

    >>> with open_client(workers=1, scheduler="tcp://x:1") as c:
    ...     pass
    Traceback (most recent call last):
    ...
    croupier.cluster.ClusterError: give one of workers=, scheduler= or client=, not 2 of them
    >>> with open_client(workers=0) as c:
    ...     pass
    Traceback (most recent call last):
    ...
    croupier.cluster.ClusterError: workers=0 must be a number of worker processes 1..1024
    """
    given = sum(x is not None for x in (workers, scheduler, client))
    if given != 1:
        raise ClusterError(f"give one of workers=, scheduler= or client=, not {given} of them")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS
    ):
        raise ClusterError(
            f"workers={workers!r} must be a number of worker processes 1..{MAX_WORKERS}"
        )
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise ClusterError(f"scheduler={scheduler!r} must be an address such as 'tcp://host:8786'")
    if client is not None:
        yield client
        return
    distributed = require_distributed()
    if scheduler is not None:
        _check_address(scheduler)
    with _quiet_logs(), contextlib.ExitStack() as stack:
        if workers is not None:
            # the scheduler's HTTP server (no dashboard) moves off a busy port: no news
            stack.enter_context(warnings.catch_warnings())
            warnings.filterwarnings("ignore", message="Port .* is already in use")
            # Dask sets MALLOC_TRIM_THRESHOLD_ in new workers to give memory back sooner;
            # it also fixes glibc's mmap threshold, so every large numpy array is a fresh
            # mmap: measured twice as slow on croupier's chunks.  Workers keep the default.
            dask = importlib.import_module("dask")
            stack.enter_context(
                dask.config.set(
                    {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
                )
            )
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
            )
            made = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                made = distributed.Client(scheduler, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise ClusterError(
                    f"cannot reach the Dask scheduler at scheduler={scheduler!r}: {exc}"
                ) from None
            stack.enter_context(made)
        yield made


class _Done:
    """A finished task of :class:`InlineClient`."""

    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        return self.value

    def release(self) -> None:
        """Nothing to release."""


class InlineClient:
    """A stand-in for a ``dask.distributed.Client`` that runs each task at once, here.

    For examples and tests of chunked code without a cluster (no Dask needed):
    it has the methods croupier calls, ``submit``, ``cancel`` and ``nthreads``.

    >>> InlineClient().submit(pow, 2, 10, key="k", pure=True).result()
    1024
    """

    def submit(self, function: Callable[..., Any], *args: Any, key: str, pure: bool) -> _Done:
        """Run ``function(*args)`` now; its result is ready."""
        return _Done(function(*args))

    def cancel(self, futures: list[Any]) -> None:
        """Nothing runs ahead: nothing to cancel."""

    def nthreads(self) -> dict[str, int]:
        """One worker of one thread."""
        return {"inline": 1}


def task_slots(client: Any) -> int:
    """The number of tasks the client's cluster runs at once (its worker threads), at least 1.

    >>> task_slots(InlineClient())
    1
    """
    threads: dict[str, int] = client.nthreads()
    return max(1, sum(threads.values()))


def in_order(
    client: Any,
    function: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    *,
    key: Callable[[int], str],
    window: int,
) -> Iterator[Any]:
    """``function(*args)`` for each args of ``tasks`` on the cluster, results in task order.

    At most ``window`` tasks are submitted ahead of the result being read, so
    memory stays bounded however many tasks there are; ``key(i)`` names task
    ``i`` (a pure task: the same key, the same result).  When the caller stops
    early (``break``, an error, Ctrl-C), the tasks still pending are cancelled.

    >>> list(in_order(InlineClient(), pow, [(2, 3), (3, 2)], key=str, window=2))
    [8, 9]
    """
    pending: deque[Any] = deque()
    source = iter(tasks)
    index = 0

    def submit() -> bool:
        nonlocal index
        args = next(source, None)
        if args is None:
            return False
        pending.append(client.submit(function, *args, key=key(index), pure=True))
        index += 1
        return True

    try:
        while len(pending) < window and submit():
            pass
        while pending:
            future = pending.popleft()
            result = future.result()
            future.release()
            submit()
            yield result
    finally:
        if pending:
            client.cancel(list(pending))
