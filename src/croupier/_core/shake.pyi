import numpy as np
import numpy.typing as npt

MAX_PREFIX: int

def shake128_blocks(
    prefix: bytes, first: int, count: int, length: int, out: npt.NDArray[np.uint8]
) -> None: ...
def lanes() -> int: ...
