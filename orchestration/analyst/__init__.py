"""The analyst's side of the warehouse: read-only SQL, method lookup, the HTML report, dbt docs.

Everything here reads the published snapshot (`orchestration.warehouse.connect_read_only`), never
the file a refresh is writing.
"""
