"""The options that run a command on a Dask cluster: ``--workers``, ``--scheduler``, ``--chunk``.

>>> cluster_request(None, None, None) is None
True
>>> cluster_request(2, None, 1000)
ClusterRequest(workers=2, scheduler=None, chunk=1000)
>>> cluster_request(None, None, 1000)
Traceback (most recent call last):
...
croupier.errors.CroupierError: --chunk splits the work for a cluster; give --workers N or ...
"""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.errors import CroupierError
from croupier.frozen import frozen_dataclass

__all__ = ["ChunkOpt", "ClusterRequest", "SchedulerOpt", "WorkersOpt", "cluster_request"]

WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        help="Run on a local Dask cluster of N worker processes (needs the cluster extra).",
        show_default=False,
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Run on the running Dask cluster at this address (tcp://host:8786).",
        show_default=False,
    ),
]
ChunkOpt = Annotated[
    int | None,
    typer.Option(
        "--chunk",
        help="Rows per task on a cluster (the result never depends on it).",
        show_default=False,
    ),
]


@frozen_dataclass
class ClusterRequest:
    """Where to run: ``workers`` local processes or the cluster at ``scheduler``; rows per task."""

    workers: int | None
    scheduler: str | None
    chunk: int | None


def cluster_request(
    workers: int | None, scheduler: str | None, chunk: int | None
) -> ClusterRequest | None:
    """The cluster the options ask for, checked; ``None`` to run in this process.

    Asking for a cluster without the ``cluster`` extra installed is an error here,
    before anything runs.
    """
    if workers is not None and scheduler is not None:
        raise CroupierError("give --workers N (a local cluster) or --scheduler ADDRESS, not both")
    if workers is None and scheduler is None:
        if chunk is not None:
            raise CroupierError(
                "--chunk splits the work for a cluster; give --workers N or --scheduler ADDRESS"
            )
        return None
    if workers is not None and workers < 1:
        raise CroupierError(f"--workers must be at least 1, got {workers}")
    if chunk is not None and chunk < 1:
        raise CroupierError(f"--chunk must be a number of rows of at least 1, got {chunk}")
    from croupier.cluster import require_distributed

    require_distributed()  # a missing extra is an error before anything runs
    return ClusterRequest(workers, scheduler, chunk)
