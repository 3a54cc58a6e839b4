select distinct on (id)
    id as comment_id,
    framework_id,
    repo,
    cast(issue_number as integer) as issue_number,
    author,
    author_association,
    body,
    cast(created_at as timestamp) as created_at,
    cast(updated_at as timestamp) as updated_at,
    cast(is_bot as boolean) as is_bot
from {{ source('raw_github', 'comments') }}
order by id, updated_at desc, _dlt_load_id desc
