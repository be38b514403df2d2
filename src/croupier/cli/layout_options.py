"""The options that shape a game's layout, shared by ``deal``, ``rank``, ``unrank`` and
``entropy``: GAME, ``--players``, ``--hands``, ``--deck`` and ``--scheme``.

>>> layout("war", None, None, None).game
'war'
"""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.options import option
from croupier.dealing import GAMES, Layout, make_layout
from croupier.decks import DECK_PRESETS
from croupier.errors import LayoutError, RankingError
from croupier.ranking.schemes import get_scheme, scheme_names

__all__ = [
    "ANY_SCHEMES",
    "BRIDGE_SCHEMES",
    "SCHEMES",
    "DeckOpt",
    "GameArg",
    "HandsOpt",
    "NamedGameArg",
    "PlayersOpt",
    "SchemeOpt",
    "check_scheme",
    "layout",
]

SCHEMES = ", ".join(scheme_names())
BRIDGE_SCHEMES = ", ".join(s for s in scheme_names() if get_scheme(s).bridge_only)
ANY_SCHEMES = ", ".join(s for s in scheme_names() if not get_scheme(s).bridge_only)

GameArg = Annotated[
    str | None,
    typer.Argument(help="Game preset (default bridge; custom with --hands).", show_default=False),
]
NamedGameArg = Annotated[str, typer.Argument(help=f"Game preset ({', '.join(GAMES)}), or custom.")]
PlayersOpt = Annotated[int | None, option("--players", "Number of players.")]
HandsOpt = Annotated[
    str | None, typer.Option("--hands", help="Hand sizes, e.g. 7,7,7 (the rest is the stock).")
]
DeckOpt = Annotated[
    str | None,
    typer.Option("--deck", help=f"Deck preset ({', '.join(DECK_PRESETS)}, shoe:K, ...)."),
]
SchemeOpt = Annotated[str, typer.Option("--scheme", help=f"Numbering scheme: {SCHEMES}.")]


def check_scheme(lay: Layout, scheme: str) -> str:
    """The scheme's canonical name, or an error when it cannot number this layout's deals."""
    s = get_scheme(scheme)
    if s.bridge_only and not lay.bridge_like:
        raise RankingError(
            f"scheme {s.name!r} numbers bridge deals only; {lay.game} needs one of {ANY_SCHEMES}"
        )
    return s.name


def layout(
    game: str | None,
    players: int | None,
    hands: str | None,
    deck: str | None,
    scheme: str | None = None,
) -> Layout:
    """The layout the options describe (its ``scheme``, when given, must number its deals)."""
    if hands is None and game is not None and game.strip().lower() == "custom":
        raise LayoutError("a custom layout needs hand sizes, e.g. --hands 7,7,7")
    lay = make_layout(game, players=players, hands=hands, deck=deck)
    if scheme is not None:
        check_scheme(lay, scheme)
    return lay
