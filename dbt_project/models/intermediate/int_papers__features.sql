-- Paper features the study compares included and other papers on.
with papers as (
    select * from {{ ref('stg_arxiv__papers') }}
),

frameworks as (
    select * from {{ ref('frameworks') }}
),

sizes as (
    -- every "<n>B" parameter count in title or abstract ("7B", "Qwen2.5-72B", "235B-A22B")
    select
        arxiv_id,
        max(cast(regexp_extract(size_text, '([0-9]+(?:\.[0-9]+)?)', 1) as double)) as policy_size_b
    from (
        select
            arxiv_id,
            unnest(regexp_extract_all(title || ' ' || abstract, '(?:^|[^A-Za-z0-9.])[0-9]+(?:\.[0-9]+)?B\b')) as size_text
        from papers
    )
    group by arxiv_id
),

maintainer_orgs as (
    select
        framework_id,
        lower(trim(unnest(string_split(maintainer_orgs, ';')))) as org
    from frameworks
),

maintainer_papers as (
    -- an author affiliation naming a framework's maintainer organisation
    select
        p.arxiv_id,
        string_agg(distinct o.framework_id, ';' order by o.framework_id) as maintainer_framework_ids
    from papers as p
    inner join maintainer_orgs as o
        on contains(lower(cast(p.authors_json as varchar)), '"' || o.org || '"')
    group by p.arxiv_id
)

select
    p.arxiv_id,
    s.policy_size_b,
    coalesce(s.policy_size_b >= {{ var('large_policy_b') }}, false) as is_large_policy,
    regexp_matches(lower(p.abstract), '\b(clip(ping)?|mask(s|ing)?|coefficient|weight(s|ing)?|normali[sz]ation)\b[^.]*\b(loss|objective|ratio|gradient)')
    or regexp_matches(lower(p.abstract), '\b(loss|objective)\b[^.]*\b(clip(ping)?|mask(s|ing)?|coefficient|weight)') as changes_loss,
    coalesce(len(cast(p.code_urls_json as varchar)) > 4, false) as releases_code,
    m.maintainer_framework_ids,
    m.maintainer_framework_ids is not null as is_maintainer_paper
from papers as p
left join sizes as s on p.arxiv_id = s.arxiv_id
left join maintainer_papers as m on p.arxiv_id = m.arxiv_id
