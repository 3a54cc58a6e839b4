"""scripts/cache_papers_from_listings.py on a listing repository these tests create with git (a `data`
branch of JSON-lines days, as the public daily-arXiv repositories keep them) and on papers read one by one."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

from ingestion.screening import labelled

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "cache_papers_from_listings.py"


def _script():
    spec = importlib.util.spec_from_file_location("cache_papers_from_listings", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _listing_repo(path: Path, day: dict[str, list[dict]]) -> None:
    work = path.parent / "work"
    subprocess.run(["git", "init", "-q", "-b", "data", str(work)], check=True)
    for name, papers in day.items():
        (work / name).write_text("".join(json.dumps(p) + "\n" for p in papers) + "not json\n")
    subprocess.run(["git", "-C", str(work), "add", "."], check=True)
    subprocess.run(["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "day"],
                   check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(path)], check=True)


def test_listings_then_papers_read_one_by_one(tmp_path, monkeypatch, capsys):
    mirrors = tmp_path / "mirrors"
    _listing_repo(mirrors / "someone+daily-arXiv-ai-enhanced" / "repo", {"2025-03-20.jsonl": [
        {"id": "2503.00001", "title": "Listed Paper", "summary": "A listed abstract.", "categories": ["cs.LG"]},
        {"id": "2503.00009", "title": "No Abstract"}]})
    truth = tmp_path / "labels.csv"
    truth.write_text("arxiv_id,title\n2503.00001,Listed Paper\n2501.00002,Read By Search\n2501.00003,Nowhere\n")
    fresh = tmp_path / "fresh_labels.csv"
    fresh.write_text("arxiv_id,title,is_rl_related,kind,policy_size_b,changes_loss,releases_code,defined_methods,sample\n")
    monkeypatch.setattr(labelled, "TRUTH_LABELS", truth)
    monkeypatch.setattr(labelled, "FRESH_LABELS_CSV", fresh)
    out = tmp_path / "out"
    out.mkdir()
    (out / "search_listings.jsonl").write_text(
        json.dumps({"arxiv_id": "2501.00002", "title": "Read By Search", "abstract": "Found by title.",
                    "comment": None, "categories": [], "source_url": "https://arxiv.org/abs/2501.00002"}) + "\n{broken\n")

    assert _script().main(["--mirrors", str(mirrors), "--out", str(out)]) == 0

    printed = capsys.readouterr().out
    assert "2 cache files written; 1 labelled papers in no listing" in printed and "2501.00003" in printed
    listed = json.loads((out / "papers" / "2503.00001.json").read_text())
    assert listed["abstract"] == "A listed abstract." and listed["source"] == "daily arXiv listing"
    searched = json.loads((out / "papers" / "2501.00002.json").read_text())
    assert searched["source"] == "search: https://arxiv.org/abs/2501.00002"
    assert {json.loads(line)["arxiv_id"] for line in (out / "listings.jsonl").read_text().splitlines()} == {
        "2503.00001", "2501.00002"}
