#!/bin/sh
# Rebuilds trl.bundle and verl.bundle (small histories written for the tests) with fixed dates.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
commit() {  # repo date author message file line
    mkdir -p "$(dirname "$1/$5")"
    printf '%s\n' "$6" >> "$1/$5"
    git -C "$1" add -A
    GIT_AUTHOR_DATE="$2" GIT_COMMITTER_DATE="$2" git -C "$1" -c user.name="$3" -c user.email="$(echo "$3" | tr 'A-Z ' 'a-z.')@$7" \
        commit -q -m "$4"
}
git init -q -b main "$work/trl"
commit "$work/trl" 2025-01-10T10:00:00Z "Tiny Maintainer" "init" trl/__init__.py '__version__ = "0.1"' huggingface.co
commit "$work/trl" 2025-01-11T10:00:00Z "Tiny Maintainer" "docs: contributing" CONTRIBUTING.md 'Open an issue before a large pull request. New features need tests.' huggingface.co
commit "$work/trl" 2025-04-10T10:00:00Z "Tiny Contributor" "Add dr_grpo loss type (arXiv:2503.20783)" trl/trainer/grpo_config.py 'loss_type = "dr_grpo"  # Dr. GRPO, https://arxiv.org/abs/2503.20783' example.org
commit "$work/trl" 2025-08-05T11:00:00Z "Tiny Maintainer" "Add importance_sampling_level for GSPO (#3812)" trl/trainer/grpo_config.py 'importance_sampling_level = "sequence"  # GSPO, arXiv:2507.18071' huggingface.co
git init -q -b main "$work/verl"
commit "$work/verl" 2025-01-12T09:00:00Z "Tiny Lead" "init" verl/__init__.py '__version__ = "0.1"' bytedance.com
commit "$work/verl" 2025-01-13T09:00:00Z "Tiny Lead" "docs: contributing" CONTRIBUTING.md 'PR titles follow [module] type: description.' bytedance.com
commit "$work/verl" 2025-03-25T09:00:00Z "Tiny Lead" "feat: DAPO recipe (arXiv 2503.14476)" recipe/dapo/README.md 'DAPO recipe: https://arxiv.org/abs/2503.14476' bytedance.com
for r in trl verl; do git -C "$work/$r" bundle create -q "$here/$r.bundle" HEAD main; done
rm -rf "$work"
