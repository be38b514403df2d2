"""Keyed stream blocks have one home (croupier.randomness.keyed_blocks), and every keyed
stream reads its blocks from it: the bulk deal stream, the keyed split, the reservoir
sample and poker's Monte Carlo batches."""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

from croupier.errors import CroupierError
from croupier.randomness.bulk_stream import BulkStream
from croupier.randomness.keyed_blocks import KeyedBlocks, keyed_block, keyed_digest
from tests.conftest import ROOT

KEY = bytes(range(32))


def _shake(data: bytes, n: int) -> bytes:
    return hashlib.shake_128(data).digest(n)


@pytest.mark.parametrize("number", [0, 1, 255, 256, 2**32, 2**64 - 1])
def test_a_block_is_shake128_of_key_label_and_number(number: int) -> None:
    want = _shake(KEY + b"lbl" + number.to_bytes(8, "big"), 100)
    assert keyed_block(KEY, b"lbl", number, 100) == want
    assert KeyedBlocks(KEY, b"lbl").block(number, 100) == want
    assert keyed_block(KEY, b"lbl", number, 7) == want[:7]  # a shorter block is a prefix


@pytest.mark.parametrize("number", [-1, 2**64])
def test_a_block_number_outside_eight_bytes_is_refused(number: int) -> None:
    with pytest.raises(CroupierError, match=r"out of range 0\.\.2\*\*64-1"):
        keyed_block(KEY, b"lbl", number, 8)
    with pytest.raises(CroupierError, match="out of range"):
        KeyedBlocks(KEY, b"lbl").block(number, 8)


def test_a_digest_has_no_number() -> None:
    assert keyed_digest(KEY, b"derive:x", 32) == _shake(KEY + b"derive:x", 32)


def test_the_bulk_stream_reads_keyed_blocks() -> None:
    stream = BulkStream(KEY)
    assert stream.main(5, 64) == _shake(KEY + b"main" + (5).to_bytes(8, "big"), 64)
    assert stream.retry(5, 64) == _shake(KEY + b"retry" + (5).to_bytes(8, "big"), 64)
    child = stream.derive("shapes")
    assert child.main(0, 16) == _shake(_shake(KEY + b"derive:shapes", 32) + b"main" + bytes(8), 16)


def test_the_keyed_split_reads_keyed_blocks() -> None:
    from croupier.scale.keyed_split import KEY_BLOCK, KEY_LABEL, LEAF_LABEL, KeyedStreams

    streams = KeyedStreams(KEY, engine="python")
    assert streams.leaf_stream(9, 50) == _shake(KEY + LEAF_LABEL + (9).to_bytes(8, "big"), 50)
    k = 16
    assert streams.key_block(2, k) == _shake(
        KEY + KEY_LABEL + (2).to_bytes(8, "big"), KEY_BLOCK * k // 8
    )
    compiled = KeyedStreams(KEY, engine="compiled")
    assert np.array_equal(
        compiled.keys(3 * KEY_BLOCK - 5, 40, 20), streams.keys(3 * KEY_BLOCK - 5, 40, 20)
    )


def test_no_module_builds_a_shake128_block_itself() -> None:
    """SHAKE-128 is called in one module of the package; the compiled kernels are tested
    against it (tests/test_core_keyed.py, tests/test_core_shake.py)."""
    home = ROOT / "src" / "croupier" / "randomness" / "keyed_blocks.py"
    callers = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "src" / "croupier").rglob("*.py")
        if path != home and re.search(r"shake_128\s*\(", path.read_text(encoding="utf-8"))
    ]
    assert callers == []
