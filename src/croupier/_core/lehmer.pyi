from typing import TypeVar

T = TypeVar("T")

def decode_rank_taking(pool: list[T], rank: int) -> list[T]: ...
