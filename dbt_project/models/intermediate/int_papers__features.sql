-- Paper features the study compares included and other papers on. Code release and maintainer
-- affiliation read the abstract's screening (arXiv API, OpenAlex) and the front matter of the
-- paper's arXiv HTML rendering (footnote links, the author block): either one is enough.
with maintainers as (
    select
        arxiv_id,
        {{ json_list_as_rows('maintainer_framework_ids_json') }} as framework_id
    from {{ ref('stg_arxiv__paper_features') }}
    union
    select
        arxiv_id,
        {{ json_list_as_rows('maintainer_framework_ids_json') }} as framework_id
    from {{ ref('stg_arxiv__paper_front_matter') }}
),

maintainer_ids as (
    select
        arxiv_id,
        {{ dbt.listagg('framework_id', "';'", 'order by framework_id') }} as maintainer_framework_ids
    from maintainers
    group by arxiv_id
)

select
    f.arxiv_id,
    f.policy_size_b,
    f.size_signal,
    coalesce(f.policy_size_b >= {{ var('large_policy_b') }}, false) as is_large_policy,
    coalesce(f.changes_loss, false) as changes_loss,
    f.loss_signal,
    coalesce(f.releases_code, false) or coalesce(fm.releases_code, false) as releases_code,
    coalesce(
        case when f.releases_code then f.code_signal end,
        case when fm.releases_code then fm.code_signal end
    ) as code_signal,
    case
        when f.releases_code then 'abstract'
        when fm.releases_code then 'front_matter'
    end as code_evidence,
    nullif(m.maintainer_framework_ids, '') as maintainer_framework_ids,
    m.maintainer_framework_ids is not null as is_maintainer_paper,
    case
        when f.maintainer_signal is not null and fm.maintainer_signal is not null
            then f.maintainer_signal || '; ' || fm.maintainer_signal
        else coalesce(f.maintainer_signal, fm.maintainer_signal)
    end as maintainer_signal,
    coalesce(fm.has_front_matter, false) as has_front_matter,
    fm.status as front_matter_status
from {{ ref('stg_arxiv__paper_features') }} as f
left join {{ ref('stg_arxiv__paper_front_matter') }} as fm on f.arxiv_id = fm.arxiv_id
left join maintainer_ids as m on f.arxiv_id = m.arxiv_id
