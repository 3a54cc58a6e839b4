-- The word n-grams (one to three words) of each thread's title and body, normalised like method
-- aliases ("Dr. GRPO" -> dr, grpo, dr_grpo). Incremental: a refresh tokenises only the threads
-- that newer dlt loads delivered (delete+insert per thread), so naming papers is one equality
-- join of these n-grams with the current aliases (int_threads__paper_mentions).
-- The n-grams of a thread that left int_threads__unified (its framework taken off the registry) go too.
{{ config(
    materialized='incremental', unique_key='thread_id', incremental_strategy='delete+insert',
    post_hook="delete from {{ this }} where thread_id not in (select u.thread_id from "
        ~ "{{ ref('int_threads__unified') }} as u)"
) }}

with threads as (
    select
        thread_id,
        dlt_load_id,
        title || ' ' || coalesce(body, '') as thread_text
    from {{ ref('int_threads__unified') }}
    {% if is_incremental() %}
        where cast(dlt_load_id as double precision) > (
            select coalesce(max(cast(dlt_load_id as double precision)), 0) from {{ this }}
        )
    {% endif %}
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
)

select
    n.thread_id,
    n.ngram,
    t.dlt_load_id
from ngrams as n
inner join threads as t on n.thread_id = t.thread_id
where n.ngram <> ''
