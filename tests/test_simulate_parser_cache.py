"""The dealer-language parser kept between runs: private folder, atomic files, safe fallbacks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lark import Lark

from croupier.simulate import parse_script
from croupier.simulate.grammar import GRAMMAR
from croupier.simulate.parser_cache import cache_folder, cached_parser, cached_value

GRAMMAR_OPTIONS = {"parser": "lalr", "lexer": "basic", "start": ["start", "expr"]}
TEXT = "produce 3\ncondition hcp(north) >= 15 && shape(north, any 4333)\naction printoneline"


def build_counter() -> tuple[list[int], object]:
    built: list[int] = []

    def build() -> Lark:
        built.append(1)
        return Lark(GRAMMAR, **GRAMMAR_OPTIONS)  # type: ignore[arg-type]

    return built, build


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CROUPIER_NO_CACHE", raising=False)
    return tmp_path / "croupier"


def test_built_once_then_loaded_and_parses_the_same(cache_home: Path) -> None:
    built, build = build_counter()
    first = cached_parser("key-a", build)  # type: ignore[arg-type]
    second = cached_parser("key-a", build)  # type: ignore[arg-type]
    assert built == [1]  # the second came from the file
    assert first.parse(TEXT, start="start") == second.parse(TEXT, start="start")
    files = list(cache_home.iterdir())
    assert len(files) == 1 and not files[0].name.startswith(".")  # no temporary left
    assert cache_home.stat().st_mode & 0o777 == 0o700
    assert files[0].stat().st_mode & 0o077 == 0
    cached_parser("key-b", build)  # type: ignore[arg-type]
    assert built == [1, 1] and len(list(cache_home.iterdir())) == 2  # another grammar


def test_a_damaged_file_is_rebuilt(cache_home: Path) -> None:
    built, build = build_counter()
    cached_parser("key", build)  # type: ignore[arg-type]
    (path,) = cache_home.iterdir()
    path.write_bytes(b"not a parser")
    parser = cached_parser("key", build)  # type: ignore[arg-type]
    assert built == [1, 1] and parser.parse("1", start="expr") is not None
    assert cached_parser("key", build) is not None and built == [1, 1]  # repaired


def test_a_folder_others_can_write_is_not_used(cache_home: Path) -> None:
    cache_home.mkdir(mode=0o700)
    os.chmod(cache_home, 0o777)
    assert cache_folder() is None
    built, build = build_counter()
    cached_parser("key", build)  # type: ignore[arg-type]
    cached_parser("key", build)  # type: ignore[arg-type]
    assert built == [1, 1] and list(cache_home.iterdir()) == []


def test_no_cache_when_turned_off_or_impossible(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_NO_CACHE", "1")
    assert cache_folder() is None
    monkeypatch.delenv("CROUPIER_NO_CACHE")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file where the folder should be
    assert cache_folder() is None
    assert parse_script(TEXT).produce == 3  # parsing still works


def test_a_value_is_computed_once_then_loaded_and_a_code_change_makes_a_new_key(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier.simulate import parser_cache

    calls: list[int] = []

    def build() -> dict[str, int]:
        calls.append(1)
        return {"hands": 7}

    assert cached_value("demo", "k", build, code=("simulate",)) == {"hands": 7}
    assert cached_value("demo", "k", build, code=("simulate",)) == {"hands": 7}
    assert calls == [1]  # loaded the second time
    assert cached_value("demo", "other key", build, code=("simulate",)) == {"hands": 7}
    assert calls == [1, 1]
    parser_cache._files_tag.cache_clear()
    monkeypatch.setattr(parser_cache, "_files_tag", lambda packages: "changed sources")
    cached_value("demo", "k", build, code=("simulate",))
    assert calls == [1, 1, 1]  # the code it depends on changed: computed again


def test_a_kept_stacking_survey_gives_the_same_deals(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The stacking strategy's survey, loaded from the cache in a later run, plans exactly
    # what computing it does: the same deals from the same seed, with and without a cache.
    from croupier.simulate import stacking
    from croupier.simulate.script_run import run_script

    script = "condition hcp(north) >= 22 && spades(north) >= 4\nproduce 40\naction printoneline"

    def deals() -> tuple[str, bytes]:
        stacking._SURVEYS.clear()  # (the cache in this process: a new run has none)
        result = run_script(parse_script(script), seed="kept survey", strategy="stacking")
        assert result.strategy.startswith("smart stacking")
        return result.strategy, result.deals.piles.tobytes()

    first = deals()  # computed and kept
    assert any(p.name.startswith("dealer-survey-") for p in cache_home.iterdir())
    assert deals() == first  # loaded
    monkeypatch.setenv("CROUPIER_NO_CACHE", "1")
    assert deals() == first  # computed again, no cache
