-- Every commit on a framework's default branch that carries evidence of a paper:
-- its arXiv id (in code, message or docs) or one of its method aliases as a code token.
-- Only added lines and messages are mined, so deleted code never counts.
with commits as (
    select * from {{ ref('stg_git__commits') }}
    where on_default_branch
),

mentions as (
    select
        m.framework_id,
        m.sha,
        m.path,
        m.mention_kind,
        m.mention_value,
        m.mention_location,
        c.committed_at
    from {{ ref('stg_git__commit_mentions') }} as m
    inner join commits as c
        on m.framework_id = c.framework_id and m.sha = c.sha
),

papers as (
    select
        arxiv_id,
        published_at
    from {{ ref('stg_arxiv__papers') }}
),

docs_paths as (
    select
        framework_id,
        unnest({{ split_to_array('docs_paths', ';') }}) as docs_prefix
    from {{ ref('frameworks') }}
),

by_arxiv_id as (
    select
        m.framework_id,
        m.sha,
        m.path,
        m.mention_location,
        m.committed_at,
        p.arxiv_id,
        m.mention_value as matched_value,
        'arxiv_id' as match_kind
    from mentions as m
    inner join papers as p on m.mention_value = p.arxiv_id
    where m.mention_kind = 'arxiv_id'
),

by_alias as (
    select
        m.framework_id,
        m.sha,
        m.path,
        m.mention_location,
        m.committed_at,
        a.arxiv_id,
        m.mention_value as matched_value,
        'alias' as match_kind
    from mentions as m
    inner join {{ ref('int_methods__aliases') }} as a on m.mention_value = a.alias_token
    where m.mention_kind = 'token'
),

linked as (
    select * from by_arxiv_id
    union all
    select * from by_alias
),

in_docs as (
    -- evidence in a file under one of the framework's documentation paths
    select distinct
        l.framework_id,
        l.sha,
        l.path
    from linked as l
    inner join docs_paths as d
        on l.framework_id = d.framework_id and starts_with(l.path, d.docs_prefix)
)

select
    l.framework_id,
    l.arxiv_id,
    l.sha,
    l.path,
    l.mention_location,
    l.committed_at,
    l.matched_value,
    case when dl.path is not null then 'docs' else l.match_kind end as evidence,
    cast(case l.match_kind when 'arxiv_id' then 0.95 else 0.7 end as double precision) as confidence,
    l.committed_at < p.published_at as is_before_first_version
from linked as l
inner join papers as p on l.arxiv_id = p.arxiv_id
left join in_docs as dl on l.framework_id = dl.framework_id and l.sha = dl.sha and l.path = dl.path
