import numpy as np
import numpy.typing as npt

MAX_KEY_BITS: int

def keys(key: bytes, k: int, start: int, out: npt.NDArray[np.uint32]) -> None: ...
def count(
    keys: npt.NDArray[np.uint32], i_from: int, i_to: int, counts: npt.NDArray[np.int64]
) -> None: ...
def place(
    keys: npt.NDArray[np.uint32],
    i_from: int,
    i_to: int,
    pos: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    lo: int = 0,
    hi: int | None = None,
) -> None: ...
def arrange(
    key: bytes,
    leaves: npt.NDArray[np.uint64],
    sizes: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    g_from: int,
    g_to: int,
    first: npt.NDArray[np.int64],
    count: npt.NDArray[np.int64],
    leaf_bits: npt.NDArray[np.int64],
    ranges: npt.NDArray[np.uint64],
    widths: npt.NDArray[np.int64],
    highest: npt.NDArray[np.uint64],
    top: npt.NDArray[np.int64],
    bottom: npt.NDArray[np.int64],
    magic: npt.NDArray[np.uint64],
    shift: npt.NDArray[np.uint64],
    order: npt.NDArray[np.int64],
) -> int: ...
