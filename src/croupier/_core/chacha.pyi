import numpy as np
import numpy.typing as npt

def keystream(state: npt.NDArray[np.uint32], count: int, out: npt.NDArray[np.uint32]) -> None: ...
