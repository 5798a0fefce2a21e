#!/bin/sh
# The man pages render without a groff warning, and the bash completion parses
# and completes the commands and a preset name.
set -eu
src=${G_TEST_SRCDIR:-$(dirname "$0")}/..
status=0

for page in "$src"/docs/man/*.1; do
    warnings=$(groff -man -ww -z "$page" 2>&1) || true
    if [ -n "$warnings" ]; then
        echo "not ok: $page: $warnings"
        status=1
    fi
done

bash -n "$src/data/completions/driveduel-cli" || status=1

# Complete "driveduel-cli ru" and "driveduel-cli run --preset qu" with a minimal
# stand-in for bash-completion's _init_completion.
out=$(bash -c '
    _init_completion() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
    _filedir() { :; }
    . "$1"
    COMP_WORDS=(driveduel-cli ru); COMP_CWORD=1; _driveduel_cli; echo "${COMPREPLY[*]}"
    COMP_WORDS=(driveduel-cli run --preset qu); COMP_CWORD=3; _driveduel_cli; echo "${COMPREPLY[*]}"
' sh "$src/data/completions/driveduel-cli")
expected="run
quick"
if [ "$out" != "$expected" ]; then
    echo "not ok: completion gave: $out"
    status=1
fi

[ $status -eq 0 ] && echo "docs and completion: ok"
exit $status
