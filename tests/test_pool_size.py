"""`rltrack pool-size`: papers per month of the candidate pool, from the arXiv API's totalResults."""

from datetime import date

from ingestion.arxiv.source import ArxivClient, monthly_pool_sizes
from ingestion.http import PoliteClient
from orchestration import cli
from worlds.sample.fake_arxiv import serve_sample_arxiv


def test_counts_come_from_total_results_not_paging(tmp_path):
    with serve_sample_arxiv() as url:
        client = ArxivClient(url, http=PoliteClient(min_interval_s=0), page_size=1)
        months = list(monthly_pool_sizes(client, date(2025, 1, 1), date(2026, 6, 30)))
    assert [m.month for m in months][:3] == ["2025-01", "2025-02", "2025-03"] and len(months) == 18
    assert all(0 <= m.pool_papers <= m.category_papers for m in months)
    # the bundled sample: 233 papers in the categories, 208 of them in the pool (the headline's "screened")
    assert sum(m.category_papers for m in months) == 233
    assert sum(m.pool_papers for m in months) == 208


def test_cli_prints_a_month_table_and_the_monthly_mean(tmp_path, capsys):
    assert cli.main(["pool-size", "--sample", "--data-dir", str(tmp_path), "--from", "2025-03", "--to", "2025-04"]) == 0
    out = capsys.readouterr().out
    assert "2025-03" in out and "2025-04" in out and "2025-02" not in out and "2025-05" not in out
    assert "in 2 months" in out and "a month" in out
