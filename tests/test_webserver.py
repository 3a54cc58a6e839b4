"""The Dagster UI: start `dagster-webserver` on a free loopback port, read the asset graph over
GraphQL, and take a headless Chromium screenshot of the global asset lineage page."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from orchestration.instance import prepare_dagster_home
from tests.png import decode_png

REPO_ROOT = Path(__file__).resolve().parents[1]
WEBSERVER = Path(sys.executable).parent / "dagster-webserver"
STARTUP_TIMEOUT_S = 300  # the code location imports dagster-dbt, dlt and parses the manifest
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
ASSET_GRAPH_QUERY = "{ assetNodes { assetKey { path } groupName dependencyKeys { path } } }"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def graphql(base: str, query: str, timeout: float = 60) -> dict:
    request = urllib.request.Request(f"{base}/graphql", data=json.dumps({"query": query}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as resp:
        body = json.load(resp)
    assert "errors" not in body, body
    return body["data"]


def wait_for_asset_graph(base: str, proc: subprocess.Popen, log: Path) -> list[dict]:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"dagster-webserver exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            nodes = graphql(base, ASSET_GRAPH_QUERY, timeout=10)["assetNodes"]
            if nodes:
                return nodes
        except (OSError, AssertionError):
            pass
        time.sleep(2)
    pytest.fail(f"webserver not ready after {STARTUP_TIMEOUT_S}s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def webserver(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("webserver")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
    env.update(DAGSTER_HOME=str(prepare_dagster_home(tmp / "dagster_home")), RLTRACK_DATA_DIR=str(tmp / "data"),
               RLTRACK_MODE="sample")
    port = free_port()
    log = tmp / "webserver.log"
    with log.open("w") as out:
        proc = subprocess.Popen([str(WEBSERVER), "-h", "127.0.0.1", "-p", str(port), "-w", "workspace.yaml"],
                                cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        nodes = wait_for_asset_graph(base, proc, log)
        yield base, nodes, tmp
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the webserver and the code server it started
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def test_webserver_listens_on_loopback_only(webserver):
    base, _, _ = webserver
    assert base.startswith("http://127.0.0.1:")


def test_graphql_asset_graph_has_dlt_upstream_of_dbt(webserver):
    _, nodes, _ = webserver
    deps = {"/".join(n["assetKey"]["path"]): {"/".join(d["path"]) for d in n["dependencyKeys"]} for n in nodes}
    groups = {"/".join(n["assetKey"]["path"]): n["groupName"] for n in nodes}
    assert "raw_arxiv/papers" in deps["staging/stg_arxiv__papers"]
    assert "raw_git/commits" in deps["staging/stg_git__commits"]
    assert "raw_github/issues" in deps["staging/stg_github__issues"]
    assert groups["raw_github/issues"] == "raw_github" and groups["marts/fct_method_adoptions"] == "marts"

    def ancestors(key: str) -> set[str]:
        seen, todo = set(), [key]
        while todo:
            for parent in deps.get(todo.pop(), ()):
                if parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
        return seen

    upstream = ancestors("published/warehouse_snapshot")
    assert {"raw_arxiv/papers", "raw_git/commits", "raw_github/comments"} <= upstream
    assert "raw_reports/reports" in deps["staging/stg_reports__reports"]
    assert {"staging/stg_arxiv__papers", "marts/fct_method_adoptions"} <= upstream
    # raw tables have no upstream, but the arXiv HTML front matter, read for the papers screened in paper_features
    assert deps["raw_arxiv/paper_front_matter"] == {"raw_arxiv/paper_features"}
    assert not any(deps[k] for k in deps if k.startswith("raw_") and k != "raw_arxiv/paper_front_matter"), \
        "raw tables have no upstream"


# --- screenshot ----------------------------------------------------------------------------------
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it: "
                                              "apt-get install -y --no-install-recommends chromium)")
def test_lineage_page_screenshot(webserver):
    base, _, tmp = webserver
    graphql(base, "mutation { setNuxSeen }")  # no first-visit community dialog over the graph
    png = tmp / "lineage.png"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp / 'chromium'}", f"--screenshot={png}", "--window-size=1600,1000",
           "--virtual-time-budget=15000", f"{base}/asset-groups"]
    subprocess.run(cmd, capture_output=True, timeout=180, check=False)
    assert png.exists(), "chromium wrote no screenshot"
    data = png.read_bytes()
    assert len(data) > 20_000, "screenshot suspiciously small"
    width, height, rows, bpp = decode_png(data)
    assert (width, height) == (1600, 1000)
    colours = Counter()
    for row in rows[::4]:
        for i in range(0, len(row), bpp * 4):
            colours[row[i:i + 3]] += 1
    most_common_share = colours.most_common(1)[0][1] / sum(colours.values())
    assert len(colours) >= 30 and most_common_share < 0.95, (len(colours), most_common_share)
    # the graph pane (right of the group list) is not empty: node boxes and labels are drawn there
    pane = Counter(rows[y][x * bpp:x * bpp + 3] for y in range(250, 600, 2) for x in range(600, 1550, 2))
    assert len(pane) >= 10, "the lineage graph area is blank"
    if os.environ.get("RLTRACK_SCREENSHOT_TO"):  # keep a copy (e.g. for the docs)
        shutil.copyfile(png, os.environ["RLTRACK_SCREENSHOT_TO"])
