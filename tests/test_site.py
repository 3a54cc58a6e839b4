"""`rltrack site`: the static tracker built from the sample snapshot, checked in files and in headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

import duckdb
import pytest

from orchestration.analyst.site import render_site
from tests.browser import CHROMIUM, Browser
from tests.conftest import REPO_ROOT, RLTRACK
from tests.png import decode_png

needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")
DR_GRPO = "2503.20783"  # a real paper the sample carries under its real id and name ("Dr. GRPO")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[tuple[str, str]] = []  # (href, class)
        self.srcs: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("a", "link") and a.get("href"):
            self.hrefs.append((a["href"], a.get("class") or ""))
        if a.get("src"):
            self.srcs.append(a["src"])


def links_of(page: Path) -> Links:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def site(sample_refresh, tmp_path_factory) -> Path:
    data_dir, _ = sample_refresh
    con = duckdb.connect(str(data_dir / "published" / "warehouse.duckdb"), read_only=True)
    try:
        return render_site(con, tmp_path_factory.mktemp("site") / "site", sample=True).parent
    finally:
        con.close()


def test_refresh_builds_the_site(sample_refresh):
    """The tracker_site asset runs downstream of the published snapshot in every refresh."""
    data_dir, _ = sample_refresh
    assert (data_dir / "site" / "index.html").exists()
    assert (data_dir / "site" / "methods" / f"{DR_GRPO}.html").exists()


def test_every_page_and_local_link_exists(site, published):
    pages = list(site.rglob("*.html"))
    ids = {r[0] for r in published.execute("select distinct arxiv_id from marts.fct_method_adoptions").fetchall()}
    assert {f"{i}.html" for i in ids} <= {p.name for p in (site / "methods").iterdir()}
    frameworks = {r[0] for r in published.execute(
        "select framework_id from marts.dim_frameworks where commits_mined > 0").fetchall()}
    assert {p.stem for p in (site / "frameworks").iterdir()} == frameworks
    external = 0
    for page in pages:
        links = links_of(page)
        assert all(not re.match(r"(https?:)?//", s) for s in links.srcs), page  # nothing loaded from the network
        for href, cls in links.hrefs:
            url = urlparse(href)
            if url.scheme:
                assert url.scheme == "https" and url.netloc in ("github.com", "arxiv.org"), href
                assert "sample" in cls.split(), f"{page.name}: sample-world link not marked: {href}"
                external += 1
            elif url.path:
                assert (page.parent / url.path).resolve().exists(), f"{page.name}: broken link {href}"
    assert external > 100


def test_optional_columns_and_marts(sample_refresh, tmp_path):
    """With an evidence grade and a citations mart the site shows them; without the optional marts it still builds."""
    data_dir, _ = sample_refresh
    copy = tmp_path / "w.duckdb"
    shutil.copyfile(data_dir / "published" / "warehouse.duckdb", copy)
    con = duckdb.connect(str(copy))
    con.execute("alter table marts.fct_method_adoptions add column if not exists evidence_grade varchar")
    con.execute("alter table marts.fct_method_adoptions add column if not exists evidence_reason varchar")
    con.execute("update marts.fct_method_adoptions set evidence_grade = 'A', evidence_reason = 'a docs page names it' "
                "where first_evidence = 'docs'")
    con.execute(f"create or replace table marts.fct_paper_citations as select '{DR_GRPO}' as arxiv_id, 'trl' as framework_id, "
                "'README.md' as path, 'related_work' as citation_context")
    render_site(con, tmp_path / "graded")
    home = (tmp_path / "graded" / "index.html").read_text()
    assert re.search(r"<span class=\"grade grade-a\" title=\"a docs page names it\">A</span>", home)
    page = (tmp_path / "graded" / "methods" / f"{DR_GRPO}.html").read_text()
    assert "Citations in frameworks (1)" in page and "related_work" in page
    assert "sample" not in re.findall(r'class="ext[^"]*"', page)[0]  # a live-world site marks nothing

    for optional in ("fct_method_proposals", "fct_failure_links", "fct_report_method_mentions", "dim_methods",
                     "fct_framework_adoption", "fct_paper_citations"):
        con.execute(f"drop table marts.{optional}")
    con.execute("drop table intermediate.int_commits__paper_links")
    render_site(con, tmp_path / "bare")
    con.close()
    page = (tmp_path / "bare" / "methods" / f"{DR_GRPO}.html").read_text()
    assert "No issue or pull request in a tracked framework names it." in page
    # rebuilding over a site replaces it; a folder that is not a site is refused
    render_site(duckdb.connect(str(copy), read_only=True), tmp_path / "bare")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        render_site(duckdb.connect(str(copy), read_only=True), tmp_path / "other")
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"


def test_cli_writes_the_site(sample_refresh, tmp_path):
    data_dir, _ = sample_refresh
    env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
    out = tmp_path / "cli-site"
    proc = subprocess.run([*RLTRACK, "site", "--data-dir", str(data_dir), "--out", str(out), "--world", "live"],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"file://{out / 'index.html'}" in proc.stdout
    assert "Sample world" not in (out / "index.html").read_text()


# --- in the browser -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if CHROMIUM is None:
        pytest.skip("no chromium binary (apt-get install chromium)")
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def assert_painted(png: Path, min_colours: int = 20) -> None:
    width, height, rows, bpp = decode_png(png.read_bytes())
    assert width >= 1300 and height >= 800
    colours = {r[i:i + 3] for r in rows[::8] for i in range(0, len(r), bpp * 5)}
    assert len(colours) > min_colours  # text, table shading, links: not a blank page


@needs_chromium
def test_home_matrix_matches_the_marts(site, browser, published, tmp_path):
    browser.goto((site / "index.html").as_uri())
    assert_painted(browser.screenshot(tmp_path / "home.png"))
    cells = browser.eval("""Array.from(document.querySelectorAll('#method-matrix td.adopted')).map(td =>
        [td.closest('tr').dataset.arxiv, td.dataset.framework, td.dataset.date, td.querySelector('a').href])""")
    repos = dict(published.execute("select framework_id, repo from marts.dim_frameworks").fetchall())
    expected = [(a, f, str(d), f"https://github.com/{repos[f]}/commit/{sha}") for a, f, d, sha in published.execute(
        "select arxiv_id, framework_id, adopted_on, first_commit_sha from marts.fct_method_adoptions").fetchall()]
    assert sorted(map(tuple, cells)) == sorted(expected)
    # rows not carried anywhere: the "not yet anywhere" filter shows exactly those, and says how many
    nowhere = published.execute("select count(*) from marts.dim_methods where frameworks_carrying = 0").fetchone()[0]
    browser.eval("document.querySelector('#matrix-filters [name=nowhere]').click()")
    shown = browser.eval("Array.from(document.querySelectorAll('#method-matrix tbody tr:not([hidden])'))"
                         ".map(r => r.dataset.count)")
    assert shown and set(shown) == {"0"} and len(shown) >= nowhere
    assert browser.eval("document.getElementById('matrix-count').textContent").startswith(f"{len(shown)} of ")
    assert "nowhere=1" in browser.eval("location.hash")
    browser.eval("document.querySelector('#matrix-filters').reset()")
    # sorting by a framework column puts its earliest adoption first
    col = browser.eval("Array.from(document.querySelectorAll('#method-matrix thead th'))"
                       ".findIndex(th => th.dataset.framework === 'verl')")
    browser.click(f"#method-matrix thead th:nth-child({col + 1}) button")
    first = browser.eval("document.querySelector('#method-matrix tbody td.adopted[data-framework=verl]').dataset.date")
    assert first == str(published.execute(
        "select min(adopted_on) from marts.fct_method_adoptions where framework_id = 'verl'").fetchone()[0])


@needs_chromium
def test_follow_a_link_to_a_method_page(site, browser, published, tmp_path):
    browser.goto((site / "index.html").as_uri())
    browser.click(f"#method-matrix tr[data-arxiv='{DR_GRPO}'] th a")
    browser.wait_event("Page.loadEventFired")
    assert browser.eval("location.pathname").endswith(f"/methods/{DR_GRPO}.html")
    assert browser.eval("document.querySelector('h1').textContent").startswith("Dr. GRPO")
    assert_painted(browser.screenshot(tmp_path / "method.png"))
    rows = browser.eval("Array.from(document.querySelectorAll('#adoptions tbody tr')).map(r => "
                        "[r.dataset.framework, r.cells[1].textContent.trim()])")
    assert sorted(map(tuple, rows)) == sorted((f, str(d)) for f, d in published.execute(
        "select framework_id, adopted_on from marts.fct_method_adoptions where arxiv_id = ?", [DR_GRPO]).fetchall())
    threads = published.execute("select count(*) from marts.fct_method_proposals where arxiv_id = ?",
                                [DR_GRPO]).fetchone()[0]
    assert browser.eval("document.querySelectorAll('#proposals tbody tr').length") == threads
    assert browser.eval(f"document.querySelector('a.ext[href=\"https://arxiv.org/abs/{DR_GRPO}\"]') !== null")
    # and on to the framework page from the method page
    browser.click("#adoptions tbody tr[data-framework='verl'] th a")
    browser.wait_event("Page.loadEventFired")
    assert browser.eval("document.querySelector('h1').textContent") == "verl"
    assert browser.eval("document.querySelector('svg.chart[role=img] title').textContent").startswith("verl:")
    assert_painted(browser.screenshot(tmp_path / "framework.png"))


@needs_chromium
def test_search_finds_any_spelling_lookup_accepts(site, browser):
    browser.goto((site / "index.html").as_uri())
    browser.eval("document.getElementById('q').focus()")
    browser.type("Dr. GRPO")
    first = browser.eval("document.querySelector('#search-results a') && document.querySelector('#search-results a').href")
    assert first and first.endswith(f"/methods/{DR_GRPO}.html")
    browser.key("Enter", 13)  # submits to search.html?q=...
    browser.wait_event("Page.loadEventFired")
    assert browser.eval("location.pathname").endswith("/search.html")
    for spelling in ("Dr. GRPO", "dr_grpo", "DR-GRPO", f"{DR_GRPO}v2", f"arXiv:{DR_GRPO}",
                     f"https://arxiv.org/abs/{DR_GRPO}v1", f"https://arxiv.org/pdf/{DR_GRPO}.pdf"):
        browser.goto((site / "search.html").as_uri() + "?q=" + quote(spelling))
        hit = browser.eval("document.querySelector('#found-list a') && document.querySelector('#found-list a').href")
        assert hit and hit.endswith(f"/methods/{DR_GRPO}.html"), spelling
    browser.goto((site / "search.html").as_uri() + "?q=" + quote("no such method zzz"))
    assert browser.eval("document.getElementById('found-summary').textContent").startswith("0 results")


@needs_chromium
def test_keyboard_only_search_and_no_javascript(site, browser):
    """Search works from the keyboard; without JavaScript the matrix and pages still read (only search/sorting go)."""
    browser.goto((site / "frameworks" / "verl.html").as_uri())
    browser.eval("document.getElementById('q').focus()")
    browser.type("GSPO")
    browser.key("ArrowDown", 40)
    assert browser.eval("document.activeElement.closest('#search-results') !== null")
    browser.key("Enter", 13)  # follows the focused result
    browser.wait_event("Page.loadEventFired")
    assert browser.eval("document.querySelector('h1').textContent").startswith("GSPO")
    browser.send("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.goto((site / "index.html").as_uri())
        assert browser.eval("document.getElementById('matrix-filters').hidden") is True  # the JS-only controls
        rows = browser.eval("document.querySelectorAll('#method-matrix tbody tr').length")
        assert rows > 50 and browser.eval("document.querySelector('#method-matrix td.adopted a').offsetHeight") > 0
        browser.goto((site / "methods" / f"{DR_GRPO}.html").as_uri())
        assert browser.eval("document.querySelectorAll('#adoptions tbody tr').length") >= 1
    finally:
        browser.send("Emulation.setScriptExecutionDisabled", {"value": False})


def test_file_links_name_a_commit_that_has_the_file(site, published):
    """A github.com/<repo>/blob/<sha>/<path> link: that commit touched the file and left it there, or the
    rules file is in the tree mined at the head (the same check on the real mirrors: git cat-file -e sha:path)."""
    has = {(r, s, p) for r, s, p in published.execute(
        "select repo, sha, path from staging.stg_git__commit_files where change_type <> 'deleted'").fetchall()}
    has |= {(r, s, p) for r, s, p in published.execute(
        "select c.repo, c.head_sha, f.path from raw_git.contribution_rules as c "
        "inner join raw_git.repo_files_at_head as f on c.framework_id = f.framework_id").fetchall()}
    links = {(repo, ref, unquote(path)) for page in site.rglob("*.html") for repo, ref, path in re.findall(
        r'https://github.com/([^/"]+/[^/"]+)/blob/([0-9a-f]{40})/([^"]+)"', page.read_text(encoding="utf-8"))}
    assert len(links) > 10
    assert sorted(links - has) == []


def test_method_page_shows_why_code_release_and_maintainers_were_read(site, published):
    """The factors table carries the signal of every factor, front matter included (int_papers__features)."""
    rows = published.execute(
        "select f.arxiv_id, f.code_signal from intermediate.int_papers__features as f "
        "join marts.fct_method_adoptions as a using (arxiv_id) where f.releases_code order by 1").fetchall()
    assert rows
    from html import escape

    for arxiv_id, signal in rows:
        page = (site / "methods" / f"{arxiv_id}.html").read_text(encoding="utf-8")
        assert escape(signal) in page or signal in page, arxiv_id
