-- Every mined mention on a framework's default branch, with its commit's times, message and number of
-- changed files: what the linking models read (a branch that never reached the default branch implements
-- nothing).
{{ config(materialized='view') }}

select
    m.framework_id,
    m.sha,
    m.path,
    m.mention_kind,
    m.mention_value,
    m.mention_location,
    m.mention_context,
    c.committed_at,
    c.authored_at,
    c.message,
    c.files_changed
from {{ ref('stg_git__commit_mentions') }} as m
inner join {{ ref('int_commits__registered') }} as c
    on m.framework_id = c.framework_id and m.sha = c.sha
where c.on_default_branch
