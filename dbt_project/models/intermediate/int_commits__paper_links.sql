-- Every commit on a framework's default branch that carries evidence of a paper:
-- its arXiv id (in code, message or docs) or one of its method aliases as a code token.
-- Only added lines and messages are mined, so deleted code never counts.
with commits as (
    select * from {{ ref('stg_git__commits') }}
    where on_default_branch
),

mentions as (
    select
        m.*,
        c.committed_at
    from {{ ref('stg_git__commit_mentions') }} as m
    inner join commits as c
        on m.framework_id = c.framework_id and m.sha = c.sha
),

papers as (
    select arxiv_id, published_at from {{ ref('stg_arxiv__papers') }}
),

docs_paths as (
    select
        framework_id,
        unnest(string_split(docs_paths, ';')) as docs_prefix
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
        m.mention_value as matched_value
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
        m.mention_value as matched_value
    from mentions as m
    inner join {{ ref('int_methods__aliases') }} as a on m.mention_value = a.alias_token
    where m.mention_kind = 'token'
),

linked as (
    select *, 'arxiv_id' as match_kind from by_arxiv_id
    union all
    select *, 'alias' as match_kind from by_alias
)

select
    l.framework_id,
    l.arxiv_id,
    l.sha,
    l.path,
    l.mention_location,
    l.committed_at,
    l.matched_value,
    case
        when exists (
            select 1 from docs_paths as d
            where d.framework_id = l.framework_id and starts_with(l.path, d.docs_prefix)
        ) then 'docs'
        else l.match_kind
    end as evidence,
    case l.match_kind when 'arxiv_id' then 0.95 else 0.7 end as confidence,
    l.committed_at < p.published_at as is_before_first_version
from linked as l
inner join papers as p on l.arxiv_id = p.arxiv_id
