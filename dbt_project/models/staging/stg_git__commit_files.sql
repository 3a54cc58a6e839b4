-- Files each commit touched, one row per (framework, sha, path).
select distinct on (framework_id, sha, path)
    framework_id,
    repo,
    sha,
    path,
    change_type,
    cast(added_lines as integer) as added_lines,
    cast(deleted_lines as integer) as deleted_lines
from {{ source('raw_git', 'commit_files') }}
order by framework_id asc, sha asc, path asc, _dlt_load_id desc
