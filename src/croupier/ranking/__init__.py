"""Bijections between deals/permutations/subsets and integers, under named schemes."""
