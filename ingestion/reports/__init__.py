"""Technical reports of large open-weight models -> `raw_reports`.

`source.tech_reports_source` (pipeline `tech_reports`) reads each seeded report's arXiv HTML (or
abstract) into `reports` and `report_mentions` (merge on arxiv_id / method) and lists reports not read
cleanly in `reports_quarantine`. Incremental: a report read cleanly is read again only when its seed
row, the alias catalogue or the reader version changes; one read from less is asked again later.
"""
