"""Tournament board sets: Big Deal compatibility, SquareDeal and croupier-boards/1, verification."""
