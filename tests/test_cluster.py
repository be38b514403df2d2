"""Runs on a Dask cluster give exactly the single-process result (simulations, chunk files).

One local cluster of two worker processes serves the whole module (starting one
costs seconds).  The expected values are always the single-process run's,
computed in this process by the code paths that do not use Dask.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from croupier.bulk import BulkDealer, deal_array
from croupier.bulk.chunk_files import (
    JOURNAL_NAME,
    MANIFEST_NAME,
    ChunkFileError,
    FileJob,
    deal_to_files,
)
from croupier.cluster import ClusterUnavailable, open_client
from croupier.dealing import make_layout
from croupier.simulate import parse_script
from croupier.simulate.distributed import ChunkSpec, chunk_batches
from croupier.simulate.run import Simulation
from croupier.simulate.script_run import run_script
from tests.conftest import CliRunner

PLAIN = """\
generate 60000
produce 300
condition hcp(north) >= 14 && shape(south, any 4333 + any 5332)
action average "south" hcp(south), frequency "spades" (spades(north), 1, 6),
  frequency "h" (hcp(north), 14, 20, hearts(south), 2, 5)
"""

STACKED = """\
generate 200000
produce 80
predeal west SA, HK
condition hcp(north) >= 20 && hcp(north) <= 21 && shape(north, any 4333 + any 4432)
action average hcp(south), frequency (diamonds(east), 0, 8)
"""

GENERATE_LIMITED = """\
generate 20000
condition spades(north) >= 6
action average "n" hcp(north)
"""


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with open_client(workers=2) as made:
        yield made


def _same(a: Any, b: Any) -> None:
    assert a.deals == b.deals
    assert (a.generated, a.produced, a.bits, a.strategy) == (
        b.generated,
        b.produced,
        b.bits,
        b.strategy,
    )
    assert a.report == b.report


@pytest.mark.parametrize("script", [PLAIN, STACKED, GENERATE_LIMITED])
def test_api_run_equals_the_single_process_run_for_any_chunk_size(client: Any, script: str) -> None:
    single = run_script(script, seed="cluster test")
    assert single.produced > 10
    for chunk in (997, 8192):
        on_cluster = run_script(script, seed="cluster test", client=client, chunk=chunk)
        _same(on_cluster, single)


def test_stacking_is_used_and_the_run_is_exact(client: Any) -> None:
    single = run_script(STACKED, seed="s2")
    assert single.strategy.startswith("smart stacking")
    assert single.deals.piles[:, 0].tolist() == [3] * len(single.deals)  # west holds SA


def test_unseeded_run_gives_passing_deals(client: Any) -> None:
    result = run_script(PLAIN, client=client, chunk=5000)
    assert result.produced == 300 and result.source == "os-csprng"
    north = result.deals.ranks_held()[:, 0]
    points = sum(
        weight * ((north >> bit) & 1).sum(axis=1)
        for weight, bit in ((4, 12), (3, 11), (2, 10), (1, 9))
    )
    assert bool((points >= 14).all())


def test_double_dummy_chunks_are_solved_by_the_workers(client: Any) -> None:
    script = (
        "produce 5\ncondition hcp(north) + hcp(south) >= 28\n"
        'action average "nt" tricks(north, notrump), frequency (tricks(south, spades), 0, 13)'
    )
    single = run_script(script, seed="dd")
    _same(run_script(script, seed="dd", client=client, chunk=16), single)


def test_a_worker_killed_mid_run_loses_nothing(client: Any) -> None:
    script = parse_script(PLAIN.replace("generate 60000", "generate 400000").replace("300", "2500"))
    single = Simulation(script, seed="kill").run()
    simulation = Simulation(script, seed="kill")
    spec = ChunkSpec.of(script, seed="kill", statistics=False)
    before = set(client.scheduler_info()["workers"])
    victim = sorted(before)[0]
    pids = client.run(os.getpid)
    parts = []
    for n, merged in enumerate(chunk_batches(simulation, spec, client, chunk=1500)):
        parts.append(merged.batch)
        if n == 2:
            os.kill(pids[victim], signal.SIGKILL)  # while it runs a chunk
    deals = type(single.deals).concatenate([p.deals for p in parts])
    assert deals == single.deals
    assert (parts[-1].generated, parts[-1].produced) == (single.generated, single.produced)
    assert sum(p.bits or 0 for p in parts) == single.bits
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(client.scheduler_info()["workers"]) < 2:
        time.sleep(0.2)
    after = set(client.scheduler_info()["workers"])
    assert victim not in after  # the worker really died (its nanny started a new one)


def _script_file(tmp_path: Path) -> str:
    path = tmp_path / "sim.dlr"
    path.write_text(
        "generate 50000\nproduce 12\npredeal north SAKQ\n"
        "condition hcp(north) >= 17 && hearts(south) >= 4\n"
        'action printall, printoneline, average "s" hcp(south), frequency (hcp(north), 15, 25)\n'
    )
    return str(path)


def test_dealer_cli_prints_the_same_text_with_1_worker_and_with_a_scheduler(
    cli: CliRunner, client: Any, tmp_path: Path
) -> None:
    script = _script_file(tmp_path)
    base = ["dealer", script, "--seed", "text", "-v"]
    single = cli(base)
    assert single.code == 0 and single.out.count("\n") > 80
    address = client.scheduler.address
    on_cluster = cli([*base, "--scheduler", address, "--chunk", "700"])
    assert on_cluster.code == 0, on_cluster.err
    assert on_cluster.out == single.out
    local = cli([*base, "--workers", "1", "--format", "table"])
    assert local.code == 0, local.err
    assert local.out == cli([*base, "--format", "table"]).out


def test_dealer_cli_json_summary_is_the_same(cli: CliRunner, client: Any, tmp_path: Path) -> None:
    script = _script_file(tmp_path)
    base = ["dealer", script, "--seed", "j", "--json"]
    single = json.loads(cli(base).out)
    clustered = json.loads(cli([*base, "--scheduler", client.scheduler.address]).out)
    for doc in (single, clustered):
        doc["result"].pop("seconds")
    assert clustered == single and single["bits"] > 0


def test_cli_cluster_option_errors(cli: CliRunner, tmp_path: Path) -> None:
    script = _script_file(tmp_path)
    result = cli(["dealer", script, "--chunk", "10"])
    assert result.code == 2 and "--chunk splits the work" in result.err
    result = cli(["dealer", script, "--workers", "1", "--scheduler", "tcp://x:1"])
    assert result.code == 2 and "not both" in result.err
    out = str(tmp_path / "d")
    result = cli(
        ["deal", "-n", "5", "-f", "jsonl", "--engine", "deal", "--workers", "1", "--out", out]
    )
    assert result.code == 2 and "leave out --engine deal" in result.err
    assert not (tmp_path / "d").exists()
    result = cli(["deal", "--count", "5", "--format", "oneline", "--workers", "1"])
    assert result.code == 2 and "--out DIR" in result.err


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_chunk_files_concatenate_to_the_single_process_output(
    cli: CliRunner, client: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "deals"
    args = ["deal", "--count", "2500", "--format", "oneline", "--seed", "files"]
    single = cli(args)
    result = cli(
        [*args, "--scheduler", client.scheduler.address, "--chunk", "1000", "--out", str(folder)]
    )
    assert result.code == 0, result.err
    manifest = json.loads((folder / MANIFEST_NAME).read_text())
    names = [f["name"] for f in manifest["files"]]
    assert names == sorted(p.name for p in folder.glob("chunk-*"))
    assert [(f["first"], f["stop"]) for f in manifest["files"]] == [
        (0, 1000),
        (1000, 2000),
        (2000, 2500),
    ]
    for record in manifest["files"]:
        path = folder / record["name"]
        assert (record["bytes"], record["sha256"]) == (path.stat().st_size, _sha(path))
    joined = b"".join((folder / n).read_bytes() for n in names)
    # the deals of one process, byte for byte; chunk 0 starts with the seeded label line
    # (croupier-chunks/1 keeps it: standard output no longer carries it)
    label = (
        f"seeded: reproducible from its seed ({manifest['algorithm']}), "
        "so only as secret as the seed\n"
    )
    assert joined.decode() == label + single.out
    assert manifest["algorithm"] == "croupier-bulk/1" and manifest["source"] == "seeded"
    assert manifest["count"] == 2500 and not (folder / JOURNAL_NAME).exists()
    assert "files" not in json.dumps(manifest["stream"])  # a fingerprint, not the seed


def test_npy_chunks_concatenate_to_the_single_process_array(client: Any, tmp_path: Path) -> None:
    job = FileJob(str(tmp_path), make_layout("euchre"), "npy", "n", count=700, chunk=256)
    manifest = deal_to_files(job, client)
    assert manifest is not None
    arrays = [np.load(tmp_path / f["name"]) for f in manifest["files"]]
    assert bool((np.concatenate(arrays) == deal_array(700, "euchre", seed="n").piles).all())
    assert manifest["bits"] == int(BulkDealer("euchre", seed="n").rows(0, 700).bits.sum())


def test_an_interrupted_run_resumes_and_other_runs_are_refused(client: Any, tmp_path: Path) -> None:
    bridge = make_layout("bridge")
    job = FileJob(str(tmp_path), bridge, "jsonl", "resume", count=900, chunk=200)
    calls = []
    assert deal_to_files(job, client, stop=lambda: len(calls.append(1) or calls) >= 2) is None
    assert (tmp_path / JOURNAL_NAME).exists() and not (tmp_path / MANIFEST_NAME).exists()
    written = sorted(p.name for p in tmp_path.glob("chunk-*"))
    assert len(written) >= 2
    first = tmp_path / written[0]
    stamp = first.stat().st_mtime_ns
    (tmp_path / written[1]).write_bytes(b"torn")  # a damaged chunk is dealt again
    manifest = deal_to_files(job, client)
    assert manifest is not None and len(manifest["files"]) == 5
    assert first.stat().st_mtime_ns == stamp  # a verified chunk was kept, not rewritten
    fresh = tmp_path.parent / "fresh"
    again = deal_to_files(
        FileJob(str(fresh), bridge, "jsonl", "resume", count=900, chunk=200), client
    )
    assert again is not None
    for a, b in zip(manifest["files"], again["files"], strict=True):
        assert (a["name"], a["sha256"]) == (b["name"], b["sha256"])
    other = FileJob(str(tmp_path), bridge, "jsonl", "another seed", count=900, chunk=200)
    with pytest.raises(ChunkFileError, match="another run"):
        deal_to_files(other, client)
    replaced = deal_to_files(other, client, overwrite=True)
    assert replaced is not None and replaced["stream"] != manifest["stream"]


def test_missing_extra_is_a_one_line_error(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(ClusterUnavailable, match=r"pip install 'croupier\[cluster\]'"):
        run_script("produce 1", seed="x", workers=2)
    result = cli(["dealer", _script_file(tmp_path), "--workers", "2"])
    assert result.code == 2
    assert "pip install 'croupier[cluster]'" in result.err and len(result.err.splitlines()) == 1
    result = cli(
        ["deal", "-n", "10", "-f", "oneline", "--workers", "2", "--out", str(tmp_path / "d")]
    )
    assert result.code == 2 and not (tmp_path / "d").exists()
    assert "pip install 'croupier[cluster]'" in result.err and len(result.err.splitlines()) == 1


def test_dealer_cli_shows_its_progress_by_time_on_a_cluster(
    cli: CliRunner, client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_dealer_habits import _watched

    events: list[str] = []
    script = _script_file(tmp_path)
    with _watched(monkeypatch, events, after=0.01):
        result = cli(["dealer", script, "--seed", "bar", "--scheduler", client.scheduler.address])
    assert result.code == 0, result.err
    # the bar is up before the first chunk's deals are back: the timer showed it
    assert events[:2] == ["bar", "batch"], events
