"""``croupier deal --workers/--scheduler --out DIR``: a bulk run as chunk files on Dask.

The chunks are files of one format in a folder, with a manifest
(:mod:`croupier.bulk.chunk_files`); this module checks the options, opens the
cluster, shows progress and reports.
"""

from __future__ import annotations

import sys
from pathlib import Path

from croupier.bulk import BULK_ALGORITHM_ID
from croupier.bulk.chunk_files import CHUNK_FORMATS
from croupier.cli.cluster_options import ClusterRequest
from croupier.cli.running import (
    INTERRUPTED,
    RunState,
    is_terminal,
    progress_bar,
    progress_wanted,
    stop_on_ctrl_c,
)
from croupier.cli.secrets_mask import mask_secrets
from croupier.errors import CroupierError
from croupier.runs import DealRequest
from croupier.runs.notes import bits_note, seeded_label

__all__ = ["deal_on_cluster"]


def _check(cluster: ClusterRequest, request: DealRequest, fmt: str, out: Path | None) -> Path:
    """The options of a cluster run checked: the bulk engine, files in a folder."""
    where = "--workers" if cluster.workers is not None else "--scheduler"
    if out is None:
        raise CroupierError(f"{where} writes one file per chunk into a folder: give --out DIR")
    if fmt not in CHUNK_FORMATS:
        raise CroupierError(
            f"{where} writes --format {', '.join(CHUNK_FORMATS)} in chunk files, not {fmt}"
        )
    if request.conditioned:
        raise CroupierError(
            f"{where} with --where/--predeal: run the condition as a script with "
            "croupier dealer --workers"
        )
    if request.engine != "bulk":
        raise CroupierError(
            f"{where} deals with the bulk engine ({BULK_ALGORITHM_ID}); leave out "
            "--engine deal, --method and --entropy"
        )
    return out


def deal_on_cluster(
    cluster: ClusterRequest,
    request: DealRequest,
    fmt: str,
    out: Path | None,
    *,
    overwrite: bool,
    quiet: bool,
    bits: bool,
) -> int:
    """Write ``request``'s deals as chunk files into ``out`` on the cluster, then a manifest;
    the exit code (:data:`INTERRUPTED` after Ctrl-C)."""
    from croupier.bulk.chunk_files import DEFAULT_FILE_CHUNK, FileJob, deal_to_files
    from croupier.cluster import open_client

    folder = _check(cluster, request, fmt, out)
    size = DEFAULT_FILE_CHUNK if cluster.chunk is None else cluster.chunk
    seed = request.seed if not isinstance(request.seed, bytes) else "hex:" + request.seed.hex()
    job = FileJob(
        str(folder.resolve()),
        request.layout,
        fmt,
        seed,
        request.count,
        size,
        label=seeded_label(request.algorithm) if seed is not None else None,
        fields={
            "algorithm": request.algorithm,
            "source": "seeded" if seed is not None else "os-csprng",
        },
    )
    show = progress_wanted(
        request.count,
        "bulk",
        quiet=quiet,
        stderr_is_terminal=is_terminal(sys.stderr),
        output_is_terminal=False,
    )
    state = RunState()
    with (
        open_client(workers=cluster.workers, scheduler=cluster.scheduler) as client,
        stop_on_ctrl_c(state),
        progress_bar(request.count, show) as advance,
    ):
        manifest = deal_to_files(
            job, client, overwrite=overwrite, progress=advance, stop=lambda: state.stop
        )
    if manifest is None:
        _stderr(
            f"warning: interrupted by Ctrl-C; the chunks written so far are kept: run the "
            f"same command again to finish {mask_secrets(repr(str(folder)))}"
        )
        return INTERRUPTED
    if not quiet:
        source = "the seed" if seed is not None else "the OS CSPRNG (not reproducible)"
        _stderr(
            f"dealt {request.count:,} deals with {request.algorithm} from {source} into "
            f"{len(manifest['files']):,} chunk files of up to {size:,} in {str(folder)!r} "
            f"(manifest.json lists them with their SHA-256)"
        )
    if bits:
        _stderr(bits_note(manifest["bits"], request.count, request.layout))
    return 0


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
