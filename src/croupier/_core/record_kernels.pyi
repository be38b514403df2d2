from typing import Any

import numpy as np
import numpy.typing as npt

def count_byte(data: npt.NDArray[np.uint8], separator: int) -> int: ...
def separator_span(data: npt.NDArray[np.uint8], separator: int) -> tuple[int, int, int]: ...
def byte_ends(
    data: npt.NDArray[np.uint8], separator: int, offset: int, ends: npt.NDArray[Any]
) -> int: ...
def gather_bounds(
    data: npt.NDArray[np.uint8],
    bounds: npt.NDArray[Any],
    order: npt.NDArray[Any],
    a: int,
    b: int,
    out: npt.NDArray[np.uint8],
) -> int: ...
def gather(
    data: npt.NDArray[np.uint8],
    starts: npt.NDArray[Any],
    lengths: npt.NDArray[Any],
    order: npt.NDArray[Any],
    a: int,
    b: int,
    out: npt.NDArray[np.uint8],
) -> int: ...
def cut_slices(
    lengths: npt.NDArray[Any],
    order: npt.NDArray[Any],
    a: int,
    b: int,
    slice_bytes: int,
    long_record: int,
    ends: npt.NDArray[np.int64],
    nbytes: npt.NDArray[np.int64],
) -> int: ...
def squeeze_rows(
    rows: npt.NDArray[np.uint8], pad: int, out: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64]
) -> int: ...
def write_pieces(
    fds: npt.NDArray[np.int32], data: npt.NDArray[np.uint8], bounds: npt.NDArray[np.int64]
) -> tuple[int, int]: ...
