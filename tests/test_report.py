"""`rltrack report`: Kaplan-Meier numbers, every chart in the HTML, and a headless Chromium render."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest

from orchestration.analyst.report import CHART_IDS, FollowUp, kaplan_meier, render_report, write_report
from orchestration.analyst.svg import PALETTE, bar_chart, nice_max
from tests.png import decode_png

CHROMIUM = next((p for p in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                             shutil.which("chromium-browser"), shutil.which("google-chrome")) if p and Path(p).exists()),
                None)


def test_kaplan_meier_with_censoring():
    # 4 papers: adopted at day 10, censored at 20, adopted at 30, censored at 40
    points = kaplan_meier([FollowUp(10, True), FollowUp(20, False), FollowUp(30, True), FollowUp(40, False)])
    assert points[0] == (0.0, 0.0)
    assert points[1] == (10, pytest.approx(0.25))  # 1 of 4 at risk
    assert points[2] == (30, pytest.approx(1 - 0.75 * 0.5))  # 1 of the 2 still at risk
    assert points[-1] == (40, pytest.approx(0.625))  # flat to the last follow-up
    assert kaplan_meier([FollowUp(-3, True), FollowUp(5, False)])[1] == (0.0, pytest.approx(0.5))
    assert kaplan_meier([]) == []


def test_svg_helpers():
    assert [nice_max(v) for v in (0, 0.33, 7, 11, 240)] == [1.0, 0.5, 10, 20, 250]
    svg = bar_chart("chart-x", "T <&>", ["a", "b"], [("s", [1, None], "#000")])
    assert svg.startswith("<svg id='chart-x'") and "T &lt;&amp;&gt;" in svg
    assert svg.count("class='bar'") == 1


@pytest.fixture(scope="module")
def report_html(sample_refresh, tmp_path_factory) -> Path:
    data_dir, _ = sample_refresh
    out = tmp_path_factory.mktemp("report") / "report.html"
    con = duckdb.connect(str(data_dir / "published" / "warehouse.duckdb"), read_only=True)
    try:
        write_report(con, out)
    finally:
        con.close()
    return out


def test_report_has_every_chart_and_is_self_contained(report_html):
    html = report_html.read_text(encoding="utf-8")
    for chart_id in CHART_IDS:
        svg = re.search(rf"<svg id='{chart_id}'.*?</svg>", html, re.S)
        assert svg, f"{chart_id} missing"
        assert re.search(r"class='(bar|curve)'", svg.group(0)), f"{chart_id} has no marks"
    for section in ("headline", "cohorts", "survival", "frameworks", "factors"):
        assert f"<section id='{section}'>" in html
    assert "Screened arXiv papers" in html and "6939" in html  # ours beside the study's
    assert "2025-Q1" in html and ("Kaplan-Meier" in html or "from marts.fct_adoption_survival" in html)
    assert not re.search(r"(src|href)=['\"]?(https?:)?//", html)  # nothing fetched from the network
    assert "<script" not in html


def test_missing_optional_mart_becomes_a_note(sample_refresh, tmp_path):
    data_dir, _ = sample_refresh
    copy = tmp_path / "w.duckdb"
    shutil.copyfile(data_dir / "published" / "warehouse.duckdb", copy)
    con = duckdb.connect(str(copy))
    for optional in ("fct_method_proposals", "fct_cohort_adoption", "fct_adoption_survival",
                     "fct_adoption_factors", "fct_framework_adoption"):
        con.execute(f"drop table if exists marts.{optional}")
    html = render_report(con)
    con.close()
    assert "<svg id='chart-proposals'" not in html and "fct_method_proposals is not in this snapshot" in html
    assert "cohorts: skipped" in html
    # the other charts fall back to computing from the core marts
    for chart_id in ("chart-frameworks", "chart-survival", "chart-factors"):
        assert f"<svg id='{chart_id}'" in html
    assert "Kaplan-Meier estimate computed from fct_method_adoptions" in html


def test_python_kaplan_meier_agrees_with_the_survival_mart(published):
    from orchestration.analyst.report import cohort_follow_ups, survival_from_mart

    mart = survival_from_mart(published)
    if mart is None:
        pytest.skip("marts.fct_adoption_survival is not built in this checkout")
    follow, _ = cohort_follow_ups(published)
    for cohort, points in mart.items():
        ours = dict(kaplan_meier(follow[cohort]))
        for day, share in points:
            expected = max((y for x, y in ours.items() if x <= day), default=0.0)
            assert share == pytest.approx(expected, abs=1e-4), (cohort, day)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium); render test skipped")
def test_report_renders_in_headless_chromium(report_html, tmp_path):
    png = tmp_path / "report.png"
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}", "--window-size=1400,3000",
         report_html.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert png.exists(), proc.stderr[-2000:]
    width, _, rows, bpp = decode_png(png.read_bytes())
    assert (width, len(rows)) == (1400, 3000)
    # Non-blank: many distinct colours, and ink (non-white pixels) in the chart area as well as the top.
    sample = {r[i:i + 3] for r in rows[::10] for i in range(0, len(r), bpp * 7)}
    assert len(sample) > 20

    def ink(y0: int, y1: int) -> int:
        return sum(1 for r in rows[y0:y1:4] for i in range(0, len(r), bpp * 4) if r[i:i + 3] != b"\xff\xff\xff")

    assert ink(0, 200) > 100  # title and headline table
    assert ink(400, 2600) > 2000  # the charts
    # the SVG marks were painted: the bar colours cover many pixels
    counts: dict[bytes, int] = {}
    for r in rows[::3]:
        for i in range(0, len(r), bpp * 3):
            counts[r[i:i + 3]] = counts.get(r[i:i + 3], 0) + 1
    for colour in PALETTE[:3]:
        assert counts.get(bytes.fromhex(colour[1:]), 0) > 500, colour
