import numpy as np
import numpy.typing as npt

LEVEL: int
ROW: int

def accepted_digits(
    rows: npt.NDArray[np.uint8],
    widths: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    ranges: npt.NDArray[np.uint64],
    limits: npt.NDArray[np.uint64],
    digits: npt.NDArray[np.uint64],
    rejected: npt.NDArray[np.int64],
    lo: int,
    hi: int,
) -> int: ...
def redraw(
    rejected: npt.NDArray[np.int64],
    widths: npt.NDArray[np.int64],
    ranges: npt.NDArray[np.uint64],
    limits: npt.NDArray[np.uint64],
    digits: npt.NDArray[np.uint64],
    bits: npt.NDArray[np.uint32],
    retry: npt.NDArray[np.uint8],
    retry_at: npt.NDArray[np.int64],
    rows_per_block: int,
) -> int: ...
def unrank_narrow(
    digits: npt.NDArray[np.uint64],
    sizes: npt.NDArray[np.int64],
    tables: npt.NDArray[np.uint64],
    at: npt.NDArray[np.int64],
    stride: npt.NDArray[np.int64],
    out: npt.NDArray[np.uint8],
    masks: npt.NDArray[np.uint64],
    lo: int,
    hi: int,
    dest: int,
    level: int = -1,
) -> None: ...
def unrank_wide(
    digits: npt.NDArray[np.uint64],
    sizes: npt.NDArray[np.int64],
    tables: npt.NDArray[np.uint64],
    at: npt.NDArray[np.int64],
    stride: npt.NDArray[np.int64],
    out: npt.NDArray[np.uint8],
    lo: int,
    hi: int,
    dest: int,
) -> None: ...
def pile_masks(
    piles: npt.NDArray[np.uint8], out: npt.NDArray[np.uint64], lo: int, hi: int
) -> None: ...
def order_stacks(
    cards: npt.NDArray[np.uint8] | npt.NDArray[np.uint16],
    digits: npt.NDArray[np.uint64],
    radices: npt.NDArray[np.int64],
    chunk_sizes: npt.NDArray[np.int64],
    stack_sizes: npt.NDArray[np.int64],
    out: npt.NDArray[np.uint8] | npt.NDArray[np.uint16],
    lo: int,
    hi: int,
    dest: int,
) -> None: ...
