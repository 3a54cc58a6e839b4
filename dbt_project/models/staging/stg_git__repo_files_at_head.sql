-- Contribution-rule files at each repository's HEAD, one row per (framework, path).
select distinct on (framework_id, path)
    framework_id,
    repo,
    head_sha,
    path,
    cast(size_bytes as integer) as size_bytes,
    kind as file_kind,
    content
from {{ source('raw_git', 'repo_files_at_head') }}
order by framework_id asc, path asc, _dlt_load_id desc
