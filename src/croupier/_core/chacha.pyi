import numpy as np
import numpy.typing as npt

def keystream(state: npt.NDArray[np.uint32], count: int, out: npt.NDArray[np.uint32]) -> None: ...
def keystream_bits(
    key: bytes, first: int, count: int, out: npt.NDArray[np.uint8] | bytearray, k: int
) -> None: ...
