-- arXiv ids and identifier tokens mined from commit messages ('' path) and added lines.
-- One row per raw row: dlt merges the raw table on all of these columns, so no distinct is needed.
select
    framework_id,
    repo,
    sha,
    coalesce(path, '') as path,
    kind as mention_kind,
    value as mention_value,
    location as mention_location
from {{ source('raw_git', 'commit_mentions') }}
