"""Random shuffles over any sequence, and (kept apart) known-flawed ones."""
