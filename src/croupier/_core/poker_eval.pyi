import numpy as np
import numpy.typing as npt

class Lookup:
    size: int
    def __init__(
        self,
        size: int,
        card_code: npt.NDArray[np.uint64],
        flush_suit: npt.NDArray[np.int8],
        flush: npt.NDArray[np.uint16],
        offsets: npt.NDArray[np.uint32],
        values: npt.NDArray[np.uint16],
        shift: int,
    ) -> None: ...

def place_rows(
    starts: npt.NDArray[np.int64],
    columns: npt.NDArray[np.uint32],
    order: npt.NDArray[np.int64],
    width: int,
    offsets: npt.NDArray[np.uint32],
) -> int: ...
def evaluate_rows(
    lookup: Lookup, cards: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16], lo: int, hi: int
) -> int: ...
def evaluate_masks(
    five: Lookup | None,
    six: Lookup | None,
    seven: Lookup | None,
    masks: npt.NDArray[np.uint64],
    out: npt.NDArray[np.uint16],
    lo: int,
    hi: int,
) -> int: ...
def evaluate_codes(
    lookup: Lookup,
    totals: npt.NDArray[np.uint64],
    masks: npt.NDArray[np.uint64],
    out: npt.NDArray[np.uint16],
    lo: int,
    hi: int,
) -> None: ...
def evaluate_omaha(
    five: Lookup,
    hole: npt.NDArray[np.uint8],
    board: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint16],
    lo: int,
    hi: int,
) -> int: ...
def holdem_boards(
    seven: Lookup,
    board_total: npt.NDArray[np.uint64],
    board_mask: npt.NDArray[np.uint64],
    combo_code: npt.NDArray[np.uint64],
    combo_mask: npt.NDArray[np.uint64],
    matchups: npt.NDArray[np.int32],
    held: npt.NDArray[np.uint64],
    counts: npt.NDArray[np.int64],
    lo: int,
    hi: int,
) -> int: ...
def holdem_trials(
    seven: Lookup,
    board_total: npt.NDArray[np.uint64],
    board_mask: npt.NDArray[np.uint64],
    combo_code: npt.NDArray[np.uint64],
    combo_mask: npt.NDArray[np.uint64],
    picks: npt.NDArray[np.int32],
    counts: npt.NDArray[np.int64],
    lo: int,
    hi: int,
) -> None: ...
def omaha_boards(
    five: Lookup,
    boards: npt.NDArray[np.uint8],
    holes: npt.NDArray[np.uint8],
    sizes: npt.NDArray[np.int32],
    counts: npt.NDArray[np.int64],
    lo: int,
    hi: int,
) -> None: ...
