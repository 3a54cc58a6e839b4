-- Names each paper's method goes by, normalised to the identifier form commit tokens use.
-- Sources: the acronym before a title's colon, the names the screener found the paper defining,
-- and the curated method catalogue. Aliases that are common code words (seed common_tokens,
-- catalogue is_common_word) or claimed by several papers are dropped, so 'gpg' in a signing step
-- never links to the GPG paper.
with candidates as (
    select
        arxiv_id,
        {{ regex_extract('title', '^([A-Z][A-Za-z0-9.+-]*(?: [A-Z][A-Za-z0-9.+-]*)?):', 1) }} as alias,
        'title_acronym' as alias_source
    from {{ ref('stg_arxiv__papers') }}
    union all
    select
        arxiv_id,
        {{ json_list_as_rows('defined_methods_json') }} as alias,
        'defined_name' as alias_source
    from {{ ref('stg_arxiv__paper_features') }}
    union all
    select
        arxiv_id,
        alias,
        'catalogue' as alias_source
    from {{ ref('method_catalogue') }}
    where alias_kind in ('acronym', 'code_token') and not is_common_word
),

normalised as (
    select distinct
        arxiv_id,
        alias,
        alias_source,
        {{ method_token('alias') }} as alias_token
    from candidates
    where
        alias <> ''
        -- an alias must look like a name (GSPO, Dr. GRPO, REINFORCE++) unless curated
        and (alias_source = 'catalogue' or length(regexp_replace(alias, '[^A-Z]', '', 'g')) >= 2)
),

shared as (
    select alias_token
    from normalised
    group by alias_token
    having count(distinct arxiv_id) > 1
)

select
    n.arxiv_id,
    min(n.alias) as alias,
    n.alias_source,
    n.alias_token
from normalised as n
where
    length(n.alias_token) >= 3
    and n.alias_token not in (select ct.token from {{ ref('common_tokens') }} as ct)
    and n.alias_token not in (select s.alias_token from shared as s)
group by n.arxiv_id, n.alias_source, n.alias_token
