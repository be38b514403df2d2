"""The options that shape a game's layout, shared by ``deal``, ``rank``, ``unrank`` and
``entropy``: GAME, ``--players``, ``--hands``, ``--deck`` and ``--scheme``
(:func:`layout` and :func:`check_scheme`, from :mod:`croupier.cli.layouts`, read them).

>>> layout("war", None, None, None).game
'war'
"""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.layouts import check_scheme, layout
from croupier.cli.options import option
from croupier.dealing import GAMES
from croupier.decks import DECK_PRESETS
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
