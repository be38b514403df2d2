"""The verification page in a real browser: Debian's Chromium, driven by Playwright.

The page is written by ``croupier page verify`` and opened from a ``file://`` URL, as a
player would open it from a USB stick.  Every verification case of the fixture
(:mod:`tests.web_verify_fixtures`: SquareDeal's own files and croupier-boards sets,
genuine and tampered with) is given to the page through its one ``<input type="file"
multiple>`` and its text fields; the verdict in ``#result`` must start with ``OK`` exactly
where ``croupier … verify`` exits 0, and otherwise be ``FAIL`` with the first problem
croupier names, and the lines below it must be croupier's lines.

Chromium runs headless from ``/usr/bin/chromium`` (no browser is downloaded).  Without it
(or without the ``playwright`` package) these tests skip, except under CI (``CI`` set),
where they fail: ``.ci/run`` installs ``chromium``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliRunner
from tests.web_verify_fixtures import FIXTURE

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CASES = json.loads(FIXTURE.read_text(encoding="utf-8"))
FIELDS = {"event": "#event", "plan": "#plan", "boards": "#boards", "commitment": "#commitment",
          "dv": "#dv", "session": "#session", "key": "#key"}  # fmt: skip
DONE = """() => {
  const r = document.getElementById("result");
  return r.dataset.busy === "0" && /^(OK|FAIL)/.test(r.textContent);
}"""


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        _unavailable("Debian's chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def page_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The page as ``croupier page verify`` writes it, as a file:// URL."""
    from croupier.cli.app import run

    out = tmp_path_factory.mktemp("page") / "verify.html"
    assert run(["page", "verify", "--out", str(out)]) == 0
    return out.as_uri()


@pytest.fixture
def page(browser: Any, page_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("request", lambda r: errors.append(f"request {r.url}") if r.url != page_url else None)
    tab.goto(page_url)
    yield tab
    context.close()
    assert errors == []  # no script error, and nothing asked of any server


def _write_files(case: dict[str, Any], folder: Path) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for f in case["files"]:
        path = folder / f["name"]
        path.write_bytes(base64.b64decode(CASES["blobs"][f["sha256"]]))
        paths.append(str(path))
    return paths


def _verify(
    page: Any, paths: list[str], inputs: dict[str, str], scheme: str = "boards"
) -> tuple[str, list[str]]:
    page.set_input_files("#files", paths)
    for name, value in inputs.items():
        if value:
            page.fill("#sq-boards" if scheme == "squaredeal" else FIELDS[name], value)
    page.wait_for_function(DONE, timeout=30_000)
    result = page.inner_text("#result")
    lines = [page.inner_text(f"#lines > div:nth-child({i + 1})") for i in range(_count(page))]
    return result, lines


def _count(page: Any) -> int:
    return int(page.evaluate("document.querySelectorAll('#lines > div').length"))


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_page_gives_croupiers_verdict(page: Any, case: dict[str, Any], tmp_path: Path) -> None:
    paths = _write_files(case, tmp_path / case["name"])
    result, lines = _verify(page, paths, case["inputs"], case["scheme"])
    if case["exit"] == 0:
        assert result.startswith("OK "), result
    elif case["exit"] == 1:
        first = next(line for line in case["lines"] if line.startswith("FAIL "))
        assert result == first, (result, first)
    else:
        assert result.startswith("FAIL cannot verify: "), result
    if case["exit"] != 2:
        assert lines == case["lines"]


def test_tampered_sets_name_file_board_and_seat(page: Any, tmp_path: Path) -> None:
    case = next(c for c in CASES["cases"] if c["name"] == "sq-swap-cards")
    result, _ = _verify(page, _write_files(case, tmp_path), {})
    assert result.startswith("FAIL TWO2.pbn board 3: deal differs in the hands of North and East")
    assert page.get_attribute("#result", "class") == "fail"
    detail = page.inner_text("#detail")  # which cards the file puts in other hands
    assert detail.startswith("In TWO2.pbn, board 3: ")
    assert "is with East (dealt to North)" in detail and "is with North (dealt to East)" in detail


def test_wrong_event_text_says_it_must_match_exactly(page: Any, tmp_path: Path) -> None:
    case = next(c for c in CASES["cases"] if c["name"] == "b2-event-space")
    result, _ = _verify(page, _write_files(case, tmp_path), case["inputs"])
    assert result.startswith("FAIL the key in cup.key does not match")
    assert "the event name and the board plan must match exactly" in result


def test_notes_are_shown_and_a_fix_turns_fail_into_ok(page: Any, tmp_path: Path) -> None:
    """A wrong delayed value fails; correcting the field re-checks at once and says OK."""
    case = next(c for c in CASES["cases"] if c["name"] == "b2-wrong-dv")
    good = next(c for c in CASES["cases"] if c["name"] == "b2-genuine")
    result, _ = _verify(page, _write_files(case, tmp_path), case["inputs"])
    assert result.startswith("FAIL cup-s1.") and "deal differs in the hands of" in result
    page.fill("#dv", good["inputs"]["dv"])
    page.wait_for_function(DONE, timeout=30_000)
    assert page.inner_text("#result").startswith("OK ")
    squaredeal = next(c for c in CASES["cases"] if c["name"] == "sq-genuine-pbn")
    page.reload()
    _, lines = _verify(page, _write_files(squaredeal, tmp_path / "sq"), {})
    assert any(line.startswith("NOTE KH commits to the keys only") for line in lines)


def test_published_values_from_new_key_json(page: Any, tmp_path: Path, cli: CliRunner) -> None:
    """The JSON `boards new-key --json` prints fills event, plan and commitment."""
    case = next(c for c in CASES["cases"] if c["name"] == "b2-genuine")
    from croupier.formats.envelope import envelope_json

    values = {key: case["inputs"][key] for key in ("event", "plan", "commitment")}
    result = {"key_file": "cup.key", **values, "verify_page": None}
    published = envelope_json(
        "boards new-key", result, algorithm="croupier-boards/2", source="os-csprng"
    )
    paths = _write_files(case, tmp_path)
    (tmp_path / "cup.json").write_text(published, encoding="utf-8")
    inputs = {"dv": case["inputs"]["dv"], "session": case["inputs"]["session"]}
    result, _ = _verify(page, [*paths, str(tmp_path / "cup.json")], inputs)
    assert result.startswith("OK "), result
    assert page.input_value("#event") == case["inputs"]["event"]


def test_screenshots(page: Any, tmp_path: Path) -> None:
    """Screenshots of a failure and a success (kept in a temporary folder for a person)."""
    folder = Path(os.environ.get("CROUPIER_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("sq-swap-cards", "b2-genuine"):
        case = next(c for c in CASES["cases"] if c["name"] == name)
        page.reload()
        _verify(page, _write_files(case, tmp_path / name), case["inputs"])
        shot = folder / f"verify-page-{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
