"""croupier: shuffle anything and deal cards, fairly, frugally, reproducibly and verifiably.

>>> from croupier import parse_card
>>> parse_card("As").long_name
'Ace of Spades'
"""

from importlib import metadata as _metadata

from croupier.cards import (
    CARD_STYLES,
    Card,
    CardStyle,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from croupier.errors import CroupierError

try:
    __version__ = _metadata.version("croupier")
except _metadata.PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0+unknown"

__all__ = [
    "CARD_STYLES",
    "Card",
    "CardStyle",
    "CroupierError",
    "Rank",
    "Suit",
    "__version__",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
]
