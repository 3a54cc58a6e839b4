-- Paper features the study compares included and other papers on.
select
    f.arxiv_id,
    f.policy_size_b,
    f.size_signal,
    coalesce(f.policy_size_b >= {{ var('large_policy_b') }}, false) as is_large_policy,
    coalesce(f.changes_loss, false) as changes_loss,
    f.loss_signal,
    coalesce(f.releases_code, false) as releases_code,
    {{ json_list_join('f.maintainer_framework_ids_json', ';') }} as maintainer_framework_ids,
    coalesce({{ json_list_length('f.maintainer_framework_ids_json') }}, 0) > 0 as is_maintainer_paper
from {{ ref('stg_arxiv__paper_features') }} as f
