"""croupier's compiled core: small kernels built ahead of time by the package's own build.

Each kernel is a Cython module (``*.pyx``) compiled with the machine's C compiler when
croupier is installed (``pip install .``, ``pip install -e .``, ``pip wheel .``); nothing
is compiled at run time.  Every kernel has a plain-Python reference beside the code that
calls it, and the tests hold the two to the same answers.

* :mod:`croupier._core.deal_text`: a whole PBN deal string (``AKQ.JT9.876.5432 ...``), or a
  LIN ``md`` value of three or four whole hands, to its four hands of cards, checked
  (every card once, 13 a hand).
* :mod:`croupier._core.chacha`: ChaCha20 keystream blocks, eight at a time.
* :mod:`croupier._core.shake`: the keyed SHAKE-128 blocks of the bulk streams.
* :mod:`croupier._core.split`: the passes of the split shuffle and Fisher–Yates over its leaves.
* :mod:`croupier._core.lehmer`: a permutation from its rank (the default shuffle of short lists).
* :mod:`croupier._core.subsets`: a deal's piles as masks from its digits (``deal()``).
* :mod:`croupier._core.bulk_kernels`: bulk dealing's digits, unranking, masks and stacks.
* :mod:`croupier._core.poker_eval`: poker evaluation and showdown tallies.
* :mod:`croupier._core.lists`: a list's items in a shuffle's order (a long list's shuffle).
* :mod:`croupier._core.allocator`: the C allocator told to keep freed memory (set by the
  command line's entry point).

Which implementation runs is chosen by :func:`croupier._core.engines.resolve`.
"""
