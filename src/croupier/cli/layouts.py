"""The layout that ``croupier deal``, ``rank``, ``unrank`` and ``entropy`` deal, from their
GAME, ``--players``, ``--hands`` and ``--deck``, and the ``--scheme`` that numbers its deals
(no Typer here: the quick path of ``croupier deal`` uses it; the options themselves are in
:mod:`croupier.cli.layout_options`).

>>> layout("war", None, None, None).game
'war'
>>> check_scheme(layout(None, None, None, None), "BigDeal")
'bigdeal'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.errors import LayoutError, RankingError

if TYPE_CHECKING:
    from croupier.dealing import Layout

__all__ = ["any_schemes", "check_scheme", "layout"]


def any_schemes() -> str:
    """The schemes that number the deals of any layout, as a list for a message."""
    from croupier.ranking.schemes import get_scheme, scheme_names

    return ", ".join(s for s in scheme_names() if not get_scheme(s).bridge_only)


def check_scheme(lay: Layout, scheme: str) -> str:
    """The scheme's canonical name, or an error when it cannot number this layout's deals."""
    from croupier.ranking.schemes import get_scheme

    s = get_scheme(scheme)
    if s.bridge_only and not lay.bridge_like:
        raise RankingError(
            f"scheme {s.name!r} numbers bridge deals only; {lay.game} needs one of {any_schemes()}"
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
    from croupier.dealing.layout import make_layout

    if hands is None and game is not None and game.strip().lower() == "custom":
        raise LayoutError("a custom layout needs hand sizes, e.g. --hands 7,7,7")
    lay = make_layout(game, players=players, hands=hands, deck=deck)
    if scheme is not None:
        check_scheme(lay, scheme)
    return lay
