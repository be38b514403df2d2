"""croupier's compiled core: small kernels built ahead of time by the package's own build.

Each kernel is a Cython module (``*.pyx``) compiled with the machine's C compiler when
croupier is installed (``pip install .``, ``pip install -e .``, ``pip wheel .``); nothing
is compiled at run time.  Every kernel has a plain-Python reference beside the code that
calls it, and the tests hold the two to the same answers.

* :mod:`croupier._core.deal_text`: a whole PBN deal string (``AKQ.JT9.876.5432 ...``), or a
  LIN ``md`` value of three or four whole hands, to its four hands of cards, checked
  (every card once, 13 a hand).
"""
