import numpy as np
import numpy.typing as npt

_Bytes = npt.NDArray[np.uint8]
_I64 = npt.NDArray[np.int64]
_U64 = npt.NDArray[np.uint64]

def count_keys(region: _Bytes, k: int, i_from: int, i_to: int, counts: _I64) -> None: ...
def scatter(
    src: _Bytes,
    dst: _Bytes,
    region: _Bytes,
    k: int,
    i_from: int,
    i_to: int,
    pos: _I64,
    numbers: bool,
) -> None: ...
def second_level(
    mid: _Bytes,
    fin: _Bytes,
    region: _Bytes,
    k: int,
    counts: _I64,
    leaf_sizes: _I64,
    b_from: int,
    b_to: int,
    start: int,
) -> None: ...
def leaf_plans(
    sizes: _I64, chunk_bits: int, margin: int
) -> tuple[_I64, _I64, _I64, _U64, _I64, _U64, _I64, _I64]: ...
def first_attempts(
    leaf_sizes: _I64,
    first: _I64,
    count: _I64,
    widths: _I64,
    highest: _U64,
    bits: _Bytes,
    out: _I64,
    mark: int,
    marked: _I64,
) -> int: ...
def redraw_round(
    data: _Bytes,
    todo: _I64,
    rows: _I64,
    ranges: _U64,
    widths: _I64,
    highest: _U64,
    values: _U64,
) -> int: ...
def fisher_yates(
    fin: _Bytes,
    leaf_sizes: _I64,
    first: _I64,
    count: _I64,
    ranges: _U64,
    widths: _I64,
    highest: _U64,
    top: _I64,
    bottom_radix: _I64,
    bits: _Bytes,
    redrawn: _U64,
    magic: _U64,
    shift: _U64,
    g_from: int,
    g_to: int,
    start: int,
    bit: int,
    next_redrawn: int,
) -> None: ...
def split_serial(
    src: _Bytes,
    dst: _Bytes,
    numbers: bool,
    source: object,
    k: int,
    tables_for: object,
    in_place: bool,
) -> None: ...
