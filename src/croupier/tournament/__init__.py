"""Tournament board sets: boards, Big Deal compatibility, commit-reveal dealing."""
