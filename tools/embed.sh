#!/bin/sh
# embed.sh NAME FILE: print C source defining `const char NAME[]` holding
# FILE's bytes and a terminating NUL, so data files (schema.sql,
# defaults.json) ship inside the binaries and need no path at run time.
# Every byte is written as a \x escape, so any content is safe.  Uses od(1).
set -eu
name=$1
file=$2
printf '/* generated from %s by tools/embed.sh: do not edit */\n' "$file"
printf 'extern const char %s[];\nconst char %s[] =\n' "$name" "$name"
od -An -v -tx1 "$file" | sed 's/^ *//; s/ *$//; s/ \{1,\}/ /g; s/\([0-9a-f][0-9a-f]\) */\\x\1/g; s/^/"/; s/$/"/'
printf '"";\n'
