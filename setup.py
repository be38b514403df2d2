"""The compiled core (croupier._core): Cython kernels built with the machine's C compiler.

Everything else about the package is in pyproject.toml.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = ["deal_text"]

setup(
    ext_modules=cythonize(
        [
            Extension(f"croupier._core.{name}", [f"src/croupier/_core/{name}.pyx"])
            for name in KERNELS
        ],
        language_level=3,
    )
)
