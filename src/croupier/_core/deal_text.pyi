from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.cards import Card

def whole_deal(
    body: str, start: int, deck: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...] | None: ...
def whole_md(
    md: str, deck: tuple[Card, ...]
) -> tuple[int, tuple[tuple[Card, ...], ...]] | None: ...
def hand_text(
    piles: npt.NDArray[np.uint8],
    card_keys: npt.NDArray[np.uint16],
    dot_keys: npt.NDArray[np.uint16],
    letters: npt.NDArray[np.uint8],
    out: npt.NDArray[Any],
) -> None: ...
