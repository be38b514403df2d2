"""Layouts, game presets, deal methods and the Deal result."""
