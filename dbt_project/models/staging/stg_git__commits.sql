-- Commits of each mined framework repository, one row per (framework, sha); the latest load wins.
-- Every framework ever loaded is here: which of them the models track is int_commits__registered's
-- business (staging reads only its source).
{%- set source_relation = source('raw_git', 'commits') %}
{%- set columns = column_names(source_relation) %}
with source as (
    select * from {{ source_relation }}
)

select distinct on (framework_id, sha)
    framework_id,
    repo,
    sha,
    parents as parents_json,
    cast(is_merge as boolean) as is_merge,
    author_name,
    lower(author_domain) as author_domain,
    {{ utc_timestamp('authored_at') }} as authored_at,
    {{ utc_timestamp('committed_at') }} as committed_at,
    cast({{ utc_timestamp('committed_at') }} as date) as committed_date,
    message,
    cast(insertions as integer) as insertions,
    cast(deletions as integer) as deletions,
    cast(files_changed as integer) as files_changed,
    cast(on_default_branch as boolean) as on_default_branch,
    cast({{ 'miner_version' if 'miner_version' in columns else 'null' }} as varchar) as miner_version,
    _dlt_load_id as dlt_load_id
from source
order by framework_id asc, sha asc, _dlt_load_id desc
