-- The tracked frameworks (the registry: stg_registry__frameworks), with how much of their history is in the warehouse.
with commits as (
    select
        framework_id,
        count(*) as commits_mined,
        min(committed_at) as first_commit_at,
        max(committed_at) as last_commit_at
    from {{ ref('int_commits__registered') }}
    group by framework_id
)

select
    f.framework_id,
    f.display_name,
    f.repo,
    f.former_repos,
    f.default_branch,
    f.maintainer_orgs,
    f.maintainer_domains,
    cast(coalesce(c.commits_mined, 0) as bigint) as commits_mined,
    c.first_commit_at,
    c.last_commit_at
from {{ ref('stg_registry__frameworks') }} as f
left join commits as c on f.framework_id = c.framework_id
