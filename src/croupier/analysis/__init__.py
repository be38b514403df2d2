"""Exact distributions, mixing, statistical tests and plots for shuffles and deals."""
