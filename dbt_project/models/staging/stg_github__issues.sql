select distinct on (framework_id, number)
    framework_id,
    repo,
    cast(number as integer) as number,
    id as github_id,
    kind as thread_kind,
    title,
    body,
    state,
    state_reason,
    author,
    author_association,
    labels as labels_json,
    cast(created_at as timestamp) as created_at,
    cast(updated_at as timestamp) as updated_at,
    cast(closed_at as timestamp) as closed_at,
    
    cast(comments_count as integer) as comments_count,
    cast(is_bot as boolean) as is_bot
from {{ source('raw_github', 'issues') }}
order by framework_id, number, updated_at desc, _dlt_load_id desc
