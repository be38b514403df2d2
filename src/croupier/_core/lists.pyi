from typing import TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T")

def take(items: list[T], order: npt.NDArray[np.intp]) -> list[T]: ...
