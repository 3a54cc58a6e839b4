-- arXiv ids and identifier tokens mined from commit messages ('' path) and added lines, with the
-- kind of place each was found in (mentions.CONTEXTS) and, for tokens, how common its words are.
-- One row per raw row: dlt merges the raw table on its key columns, so no distinct is needed.
select
    framework_id,
    repo,
    sha,
    coalesce(path, '') as path,
    kind as mention_kind,
    value as mention_value,
    location as mention_location,
    coalesce(context, case location when 'message' then 'message' else 'code_name' end) as mention_context,
    cast(word_zipf as double precision) as word_zipf
from {{ source('raw_git', 'commit_mentions') }}
