-- Screening result and features computed while loading (ingestion/screening/rules.py, or a language
-- model when one is configured: ingestion/screening/language_model.py), one row per paper. Rows screened
-- before the model screener existed (or built by hand) have no screener columns: the rules decided.
{%- set source_relation = source('raw_arxiv', 'paper_features') %}
{%- set columns = column_names(source_relation) %}
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
    screener_version,
    coalesce({{ 'screener' if 'screener' in columns else 'null' }}, 'rules') as screener,
    {{ 'screener_model' if 'screener_model' in columns else 'cast(null as varchar)' }} as screener_model,
    {{ 'screener_note' if 'screener_note' in columns else 'cast(null as varchar)' }} as screener_note
from {{ source_relation }}
order by arxiv_id asc, _dlt_load_id desc
