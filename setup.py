"""The compiled core (croupier._core): Cython kernels built with the machine's C compiler.

Everything else about the package is in pyproject.toml.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = sorted(path.stem for path in Path("src/croupier/_core").glob("*.pyx"))
"""Every ``.pyx`` file of ``src/croupier/_core`` is one extension module."""

setup(
    ext_modules=cythonize(
        [
            Extension(
                f"croupier._core.{name}",
                [f"src/croupier/_core/{name}.pyx"],
                include_dirs=["src/croupier/_core/include"],
                extra_compile_args=["-O3"],
            )
            for name in KERNELS
        ],
        language_level=3,
    )
)
