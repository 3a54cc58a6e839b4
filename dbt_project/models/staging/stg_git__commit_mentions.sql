-- arXiv ids and identifier tokens mined from commit messages ('' path) and added lines, with the
-- kind of place each was found in (mentions.CONTEXTS) and, for tokens, how common its words are.
-- Rows loaded before the miner recorded contexts have neither column: they read as the message,
-- a code comment (an id) or a plain code name (a token). One row per raw row: dlt merges the raw
-- table on its key columns.
{%- set source_relation = source('raw_git', 'commit_mentions') %}
{%- set columns = adapter.get_columns_in_relation(source_relation) | map(attribute='name') | map('lower') | list
    if execute else [] %}
select
    framework_id,
    repo,
    sha,
    coalesce(path, '') as path,
    kind as mention_kind,
    value as mention_value,
    location as mention_location,
    coalesce(
        {{ 'context' if 'context' in columns else 'null' }},
        case when location = 'message' then 'message' when kind = 'arxiv_id' then 'code_comment' else 'code_name' end
    ) as mention_context,
    cast({{ 'word_zipf' if 'word_zipf' in columns else 'null' }} as double precision) as word_zipf
from {{ source_relation }}
