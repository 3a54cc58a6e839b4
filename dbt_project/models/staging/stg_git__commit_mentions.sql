-- arXiv ids and identifier tokens mined from commit messages ('' path) and added lines, with the
-- kind of place each was found in (mentions.CONTEXTS) and, for tokens, how common its words are.
-- Rows loaded before the miner recorded contexts have neither column: they read as the message,
-- a code comment (an id) or a plain code name (a token). One row per raw row: dlt merges the raw
-- table on its key columns. A commit mined again by a new miner version keeps only that version's
-- mentions: the rows an earlier version gave and the new one does not stay in the raw table, left out here.
{%- set source_relation = source('raw_git', 'commit_mentions') %}
{%- set columns = column_names(source_relation) %}
select
    m.framework_id,
    m.repo,
    m.sha,
    coalesce(m.path, '') as path,
    m.kind as mention_kind,
    m.value as mention_value,
    m.location as mention_location,
    coalesce(
        {{ 'm.context' if 'context' in columns else 'null' }},
        case
            when m.location = 'message' then 'message' when m.kind = 'arxiv_id' then 'code_comment' else 'code_name'
        end
    ) as mention_context,
    cast({{ 'm.word_zipf' if 'word_zipf' in columns else 'null' }} as double precision) as word_zipf
from {{ source_relation }} as m
{%- if 'miner_version' in columns %}
where exists (
    select 1 from {{ source('raw_git', 'commits') }} as c
    where c.repo = m.repo and c.sha = m.sha and c.miner_version is not distinct from m.miner_version
)
{%- endif %}
