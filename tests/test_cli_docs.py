"""`rltrack docs`: the dbt docs site (data dictionary) built from a copy of the published snapshot."""

from __future__ import annotations

import json
import os
from unittest import mock

from orchestration.cli import main


def test_docs_site_is_generated(sample_refresh, tmp_path, capsys):
    data_dir, _ = sample_refresh
    published = data_dir / "published" / "warehouse.duckdb"
    before = published.stat().st_mtime_ns
    with mock.patch.dict(os.environ):
        assert main(["docs", "--data-dir", str(data_dir), "--out", str(tmp_path / "site")]) == 0
    out = capsys.readouterr().out
    index = tmp_path / "site" / "static_index.html"
    assert f"data dictionary: {index}" in out
    assert index.stat().st_size > 100_000 and (tmp_path / "site" / "index.html").exists()
    catalog = json.loads((tmp_path / "site" / "catalog.json").read_text())
    assert "model.rltrack.fct_method_adoptions" in catalog["nodes"]  # columns read from the warehouse
    assert "days_from_paper" in catalog["nodes"]["model.rltrack.fct_method_adoptions"]["columns"]
    assert published.stat().st_mtime_ns == before  # the snapshot itself is not touched


def test_docs_without_a_snapshot_says_so(tmp_path, capsys):
    with mock.patch.dict(os.environ):
        assert main(["docs", "--data-dir", str(tmp_path)]) == 1
    assert "no published warehouse" in capsys.readouterr().err
