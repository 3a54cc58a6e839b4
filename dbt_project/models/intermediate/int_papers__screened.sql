-- Screening of every landed paper: RL-related, and which kind of contribution it is, with the
-- signal that decided it (classifiers in ingestion/screening/rules.py, measured by scripts/screening_metrics.py).
select
    p.arxiv_id,
    p.first_version_date,
    f.is_rl_related,
    f.paper_kind,
    f.kind_signal,
    f.is_model_report,
    f.in_pool,
    f.screener_version,
    f.screener
from {{ ref('stg_arxiv__papers') }} as p
inner join {{ ref('stg_arxiv__paper_features') }} as f on p.arxiv_id = f.arxiv_id
