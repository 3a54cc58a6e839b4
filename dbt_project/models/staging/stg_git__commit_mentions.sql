-- arXiv ids and identifier tokens mined from commit messages ('' path) and added lines.
select distinct
    framework_id,
    repo,
    sha,
    coalesce(path, '') as path,
    kind as mention_kind,
    value as mention_value,
    location as mention_location
from {{ source('raw_git', 'commit_mentions') }}
