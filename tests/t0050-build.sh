#!/bin/bash
# t0050-build.sh: the build notices changed settings and headers: `make
# DBPATH=...` after a plain `make` rebuilds what holds the path (and only
# what the change reaches), and a header rebuilds what includes it (-MMD).
. "$(dirname "$0")/setup.sh"

if ! command -v make >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
	skip "no make or cc: build checks"
	exit 0
fi
b=$T/build
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory B="$b" "$@" 2>&1; }
# check_none OUT DESC: make's output OUT shows no compilation.
check_none() { if grep -q ' -c -o ' "$1"; then notok "$2"; else ok "$2"; fi; }
store=$b/obj/common/store/store.o   # store_default_path(): the compiled-in path
uuid=$b/obj/common/base/uuid.o

mk DBPATH=/first/consent.db "$store" "$uuid" > "$T/out1"
check grep -q /first/consent.db "$store" "store.o holds the DBPATH it was built with"
mk DBPATH=/first/consent.db "$store" "$uuid" > "$T/out2"
check_none "$T/out2" "the same settings again: nothing is compiled"
mk DBPATH=/second/consent.db "$store" > "$T/out3"
check grep -q 'common/store/store.c' "$T/out3" "a new DBPATH recompiles store.c"
check grep -q /second/consent.db "$store" "store.o now holds the new path"
check test "$(grep -c /first/consent.db "$store")" = 0 "and not the old one"
mk DBPATH=/second/consent.db "$store" > "$T/out4"
check_none "$T/out4" "the new path, built once: nothing is compiled"
mk DBPATH=/second/consent.db CFLAGS='-O1 -g' "$uuid" > "$T/out5"
check grep -q 'common/base/uuid.c' "$T/out5" "new compiler flags recompile every object"

# Header dependencies: what-if a header changed (-W), without touching it.
mk DBPATH=/second/consent.db "$store" "$uuid" > /dev/null
mk DBPATH=/second/consent.db -W "common/base/uuid.h" "$uuid" > "$T/out6"
check grep -q 'common/base/uuid.c' "$T/out6" "a changed uuid.h recompiles uuid.c"
mk DBPATH=/second/consent.db -W "common/base/uuid.h" "$store" > "$T/out7"
check_none "$T/out7" "a changed uuid.h leaves store.c alone (it does not include it)"
mk DBPATH=/second/consent.db -W "common/base/limits.h" "$store" > "$T/out8"
check grep -q 'common/store/store.c' "$T/out8" "a changed limits.h recompiles store.c, which includes it"
