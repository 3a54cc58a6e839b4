{#- Normalise a method name to the identifier form commit tokens use:
    'Dr. GRPO' -> 'dr_grpo', 'REINFORCE++' -> 'reinforce_plus_plus', 'Clip-Cov' -> 'clip_cov'. -#}
{% macro method_token(expr) -%}
    trim(both '_' from regexp_replace(
        regexp_replace(replace(lower({{ expr }}), '++', '_plus_plus'), '[^a-z0-9]+', '_', 'g'), '_+', '_', 'g'
    ))
{%- endmacro %}
