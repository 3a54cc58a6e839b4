-- Threads that name a paper: by arXiv id, or by a method alias appearing as a word sequence
-- ("Dr. GRPO", "dr_grpo" and "DR-GRPO" all normalise to dr_grpo). Matching joins word n-grams
-- to aliases on equality, so the cost grows with text size, not threads x aliases; only n-grams
-- that start with an alias's first word are formed.
with threads as (
    select
        thread_id,
        title || ' ' || coalesce(body, '') as thread_text
    from {{ ref('int_threads__unified') }}
),

candidate_ids as (
    select
        thread_id,
        {{ regex_matches_as_rows('thread_text', '\d{4}\.\d{4,5}') }} as candidate_id
    from threads
),

by_arxiv_id as (
    select distinct
        c.thread_id,
        p.arxiv_id,
        'arxiv_id' as match_kind
    from candidate_ids as c
    inner join {{ ref('stg_arxiv__papers') }} as p on c.candidate_id = p.arxiv_id
),

thread_words as (
    select
        thread_id,
        {{ split_to_array(method_token('thread_text'), '_') }} as words
    from threads
),

words as (
    select
        thread_id,
        unnest(words) as word,
        generate_subscripts(words, 1) as word_position
    from thread_words
),

alias_starts as (
    -- an n-gram can only equal an alias if it begins with the alias's first word
    select distinct split_part(alias_token, '_', 1) as word
    from {{ ref('int_methods__aliases') }}
),

starts as (
    select
        w.thread_id,
        w.word,
        w.word_position
    from words as w
    inner join alias_starts as s on w.word = s.word
),

ngrams as (
    select
        thread_id,
        word as ngram
    from starts
    union
    select
        s.thread_id,
        s.word || '_' || w2.word as ngram
    from starts as s
    inner join words as w2 on s.thread_id = w2.thread_id and w2.word_position = s.word_position + 1
    union
    select
        s.thread_id,
        s.word || '_' || w2.word || '_' || w3.word as ngram
    from starts as s
    inner join words as w2 on s.thread_id = w2.thread_id and w2.word_position = s.word_position + 1
    inner join words as w3 on s.thread_id = w3.thread_id and w3.word_position = s.word_position + 2
),

by_alias as (
    select distinct
        n.thread_id,
        a.arxiv_id,
        'alias' as match_kind
    from ngrams as n
    inner join {{ ref('int_methods__aliases') }} as a on n.ngram = a.alias_token
),

matches as (
    select * from by_arxiv_id
    union all
    select * from by_alias
)

select
    thread_id,
    arxiv_id,
    min(match_kind) as match_kind
from matches
group by thread_id, arxiv_id
