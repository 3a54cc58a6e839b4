with source as (
    select * from {{ source('raw_git', 'commits') }}
)

select distinct on (framework_id, sha)
    framework_id,
    repo,
    sha,
    parents as parents_json,
    cast(is_merge as boolean) as is_merge,
    author_name,
    lower(author_domain) as author_domain,
    cast(authored_at as timestamp) as authored_at,
    cast(committed_at as timestamp) as committed_at,
    cast(committed_at as date) as committed_date,
    message,
    cast(insertions as integer) as insertions,
    cast(deletions as integer) as deletions,
    cast(files_changed as integer) as files_changed,
    cast(on_default_branch as boolean) as on_default_branch
from source
order by framework_id, sha, _dlt_load_id desc
