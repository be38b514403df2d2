from croupier.cards import Card

def whole_deal(
    body: str, start: int, deck: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...] | None: ...
def whole_md(
    md: str, deck: tuple[Card, ...]
) -> tuple[int, tuple[tuple[Card, ...], ...]] | None: ...
