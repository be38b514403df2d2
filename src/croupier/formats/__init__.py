"""Pure converters between deals and text/file formats (no randomness)."""
