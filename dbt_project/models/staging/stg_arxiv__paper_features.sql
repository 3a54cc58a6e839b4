-- Screening result and features computed while loading (ingestion/screening.py), one row per paper.
select distinct on (arxiv_id)
    arxiv_id,
    cast(is_rl_related as boolean) as is_rl_related,
    paper_kind,
    kind_signal,
    cast(policy_size_b as double precision) as policy_size_b,
    size_signal,
    cast(changes_loss as boolean) as changes_loss,
    loss_signal,
    cast(releases_code as boolean) as releases_code,
    code_signal,
    cast(model_report as boolean) as is_model_report,
    model_report_signal,
    cast(in_pool as boolean) as in_pool,
    defined_methods as defined_methods_json,
    maintainer_framework_ids as maintainer_framework_ids_json,
    maintainer_signal,
    screener_version
from {{ source('raw_arxiv', 'paper_features') }}
order by arxiv_id asc, _dlt_load_id desc
