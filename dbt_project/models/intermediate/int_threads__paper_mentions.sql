-- Threads that name a paper: by arXiv id, or by a method alias appearing as a word sequence
-- ("Dr. GRPO", "dr_grpo" and "DR-GRPO" all normalise to dr_grpo). Matching joins word n-grams
-- to aliases on equality, so the cost grows with text size, not threads x aliases.
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

ngrams as (
    select
        thread_id,
        word as ngram
    from words
    union
    select
        w1.thread_id,
        w1.word || '_' || w2.word as ngram
    from words as w1
    inner join words as w2 on w1.thread_id = w2.thread_id and w2.word_position = w1.word_position + 1
    union
    select
        w1.thread_id,
        w1.word || '_' || w2.word || '_' || w3.word as ngram
    from words as w1
    inner join words as w2 on w1.thread_id = w2.thread_id and w2.word_position = w1.word_position + 1
    inner join words as w3 on w1.thread_id = w3.thread_id and w3.word_position = w1.word_position + 2
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
