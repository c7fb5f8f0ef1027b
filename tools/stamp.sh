#!/bin/sh
# stamp.sh FILE: write standard input to FILE only when it differs from what
# FILE holds, so that make rebuilds what depends on FILE exactly when the
# content (a compiled-in setting, the compiler's flags) changed.
set -eu
tmp=$1.tmp.$$
cat > "$tmp"
if [ -f "$1" ] && cmp -s "$tmp" "$1"; then
	rm -f "$tmp"
else
	mv "$tmp" "$1"
fi
