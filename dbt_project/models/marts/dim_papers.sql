-- One row per screened paper in the study window, with its screening result and features.
select
    p.arxiv_id,
    p.latest_version,
    p.title,
    p.published_at,
    p.first_version_date,
    cast({{ dbt.date_trunc('quarter', 'p.first_version_date') }} as date) as cohort_quarter,
    p.primary_category,
    s.is_rl_related,
    s.paper_kind,
    s.kind_signal,
    s.screener,
    s.paper_kind = 'general_method' as is_general_method,
    s.is_model_report,
    s.in_pool,
    f.policy_size_b,
    f.is_large_policy,
    f.changes_loss,
    f.releases_code,
    f.is_maintainer_paper,
    f.maintainer_framework_ids,
    f.code_evidence,
    f.has_front_matter
from {{ ref('stg_arxiv__papers') }} as p
inner join {{ ref('int_papers__screened') }} as s on p.arxiv_id = s.arxiv_id
inner join {{ ref('int_papers__features') }} as f on p.arxiv_id = f.arxiv_id
where p.first_version_date between cast('{{ var("window_start") }}' as date) and cast('{{ var("window_end") }}' as date)
