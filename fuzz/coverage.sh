#!/bin/sh
# coverage.sh [HARNESS...]: how much of each parser the fuzzing corpora reach.
#
# Builds every common/ source, the generated sources, each harness and
# fuzz/replay.c (a plain main(), no libFuzzer) with clang's source-based
# coverage (-fprofile-instr-generate -fcoverage-mapping) under
# $FUZZ_COV_BUILD (build/fuzz-cov), replays the harness's whole corpus (its
# seeds fuzz/corpus/H/, the saved regressions tests/fuzz-regressions/H/ and
# the corpus earlier runs grew, fuzz/out/corpus/H/), merges the profile with
# llvm-profdata and prints, per harness and per source file it targets
# (TARGETS below), the lines and branches reached (llvm-cov export's
# summary), then the unreached lines of each target file; a file several
# harnesses target gets a row "all" too, what they reach together (their
# profiles merged), which is what the bar is checked on for it.  Also writes the
# table to fuzz/out/coverage.txt and the unreached lines to
# fuzz/out/unreached.txt (docs/reliability.md quotes the table from there).
#
# Exit status 0 when every target file reaches at least COV_LINES % of its
# lines and COV_BRANCHES % of its branches (90 and 80), 1 when one does not,
# 2 when the build or a replay fails.  COV_STRICT=0 always exits 0 on
# shortfalls (to print the figures while a parser is below the bar).
#
#   CLANG, LLVM_PROFDATA, LLVM_COV   the tools (clang, llvm-profdata, llvm-cov)
#   FUZZ_COV_BUILD  object directory (build/fuzz-cov)
#   FUZZ_COV_OUT    where coverage.txt and unreached.txt go (fuzz/out)
#   FUZZ_COV_GROWN  the grown corpora's folder (fuzz/out/corpus; empty: none,
#                   only what is committed)
set -u
cd "$(dirname "$0")/.."

CLANG=${CLANG:-clang}
PROFDATA=${LLVM_PROFDATA:-llvm-profdata}
LLVMCOV=${LLVM_COV:-llvm-cov}
B=${FUZZ_COV_BUILD:-build/fuzz-cov}
OUT=${FUZZ_COV_OUT:-fuzz/out}
GROWN=${FUZZ_COV_GROWN:-fuzz/out/corpus}
MIN_LINES=${COV_LINES:-90}
MIN_BRANCHES=${COV_BRANCHES:-80}

# The source files each harness is there to cover: the parsers a client's
# request reaches (fuzz/README.md says what each harness reads).
targets() {
	case $1 in
	query) echo common/http/http.c ;;
	consent) echo common/endpoint/consent_req.c common/input/valid.c ;;
	scripts) echo common/endpoint/scripts_req.c common/input/tracker.c ;;
	lang) echo common/input/lang.c ;;
	origin) echo common/input/origin.c ;;
	ua) echo common/input/ua.c ;;
	geo) echo common/input/geo.c ;;
	config) echo common/input/configdoc.c common/config/resolve.c ;;
	prepared) echo common/config/prepare.c common/config/resolve.c ;;
	proof) echo common/proof/proof.c common/proof/chain.c ;;
	admin) echo common/admin/api_req.c ;;
	*) echo "" ;;
	esac
}

# The harnesses (of those run) that target file $1.
sharing() {
	for _h in $harnesses; do
		case " $(targets "$_h") " in *" $1 "*) printf '%s ' "$_h" ;; esac
	done
}

# Whether lines % $1 or branches % $2 is under the bar.
below() {
	awk -v l="$1" -v b="$2" -v ml="$MIN_LINES" -v mb="$MIN_BRANCHES" \
	    'BEGIN { exit !(l < ml || b < mb) }'
}

# "covered/count percent covered/count percent" of lines and branches of
# file $2 in llvm-cov export's summary $1.
summary() {
	row=$(jq -r --arg f "$2" '.data[0].files[] | select(.filename | endswith($f)) |
	    "\(.summary.lines.covered)/\(.summary.lines.count) \(.summary.lines.percent)" +
	    " \(.summary.branches.covered)/\(.summary.branches.count) \(.summary.branches.percent)"' \
	    "$1")
	echo "${row:-0/0 0 0/0 0}"
}

all=$(for f in fuzz/*.c; do h=${f##*/}; h=${h%.c}; [ "$h" = replay ] || printf '%s ' "$h"; done)
harnesses=${*:-$all}
for t in "$CLANG" "$PROFDATA" "$LLVMCOV" jq; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "fuzz-coverage: $t not found (sh tools/deps.sh)" >&2
		exit 2
	fi
done

CPPFLAGS="-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -iquote common -iquote fuzz -iquote $B/gen"
COV="-fprofile-instr-generate -fcoverage-mapping"
CFLAGS="-std=c11 -g -O0 -w"
LIBS="-lsqlite3 -lcjson -lcrypto -lmaxminddb -lm"

# The library as fuzz/run.sh builds it (the SQLite store; no libpq), with
# coverage; make writes the generated sources.
build() {
	${MAKE:-make} -s B="$B" DBPATH=/nonexistent/consent.db "$B/gen/settings.h" \
	    "$B/gen/defaults_data.c" "$B/gen/defaults_hash.c" "$B/gen/schema_data.c" \
	    "$B/gen/trackers_data.c" || return 1
	objs=""
	for src in $(find common -name '*.c' | LC_ALL=C sort) "$B"/gen/*.c; do
		case $src in common/store/pg/*) continue ;; esac
		obj=$B/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')
		mkdir -p "$B/obj"
		if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] ||
		    [ -n "$(find common fuzz "$B/gen" -name '*.h' -newer "$obj")" ]; then
			# shellcheck disable=SC2086
			$CLANG $CPPFLAGS $CFLAGS $COV -c -o "$obj" "$src" || return 1
		fi
		objs="$objs $obj"
	done
	rm -f "$B/libcov.a"
	# shellcheck disable=SC2086
	ar rcs "$B/libcov.a" $objs || return 1
	for h in $harnesses; do
		[ -f "fuzz/$h.c" ] || { echo "fuzz-coverage: no harness fuzz/$h.c (have: $all)" >&2; return 1; }
		# shellcheck disable=SC2086
		$CLANG $CPPFLAGS $CFLAGS $COV -o "$B/cov-$h" fuzz/replay.c "fuzz/$h.c" \
		    "$B/libcov.a" $LIBS || return 1
	done
}

echo "fuzz-coverage: building with $CLANG in $B" >&2
build || { echo "fuzz-coverage: build failed" >&2; exit 2; }
mkdir -p "$OUT"
table=$OUT/coverage.txt unreached=$OUT/unreached.txt
: > "$unreached"
printf '%-8s %-32s %7s %9s %11s %9s\n' harness file lines "lines %" branches "branches %" > "$table"
status=0
for h in $harnesses; do
	set -- "fuzz/corpus/$h"
	[ -d "tests/fuzz-regressions/$h" ] && set -- "$@" "tests/fuzz-regressions/$h"
	[ -n "$GROWN" ] && [ -d "$GROWN/$h" ] && set -- "$@" "$GROWN/$h"
	rm -f "$B/$h.profraw"
	if ! LLVM_PROFILE_FILE="$B/$h.profraw" "$B/cov-$h" "$@" > "$B/$h.replay" 2>/dev/null; then
		echo "fuzz-coverage: replaying $h's corpus failed (fuzz/replay.c)" >&2
		exit 2
	fi
	inputs=$(sed -n 's/^\([0-9]*\) inputs$/\1/p' "$B/$h.replay")
	"$PROFDATA" merge -sparse -o "$B/$h.profdata" "$B/$h.profraw" || exit 2
	# shellcheck disable=SC2046
	"$LLVMCOV" export -summary-only -instr-profile="$B/$h.profdata" "$B/cov-$h" \
	    $(targets "$h") > "$B/$h.json" || exit 2
	for f in $(targets "$h"); do
		set -- $(summary "$B/$h.json" "$f")
		printf '%-8s %-32s %7s %8.1f%% %11s %8.1f%%\n' "$h" "$f" "$1" "$2" "$3" "$4" >> "$table"
		# A file more than one harness targets is held to the bar by
		# what they reach together (the "all" row below).
		if [ "$(sharing "$f" | wc -w)" -eq 1 ] && below "$2" "$4"; then
			status=1
		fi
		# The unreached lines: llvm-cov show marks a line never executed
		# with a count of 0 ("    0|").
		"$LLVMCOV" show -instr-profile="$B/$h.profdata" "$B/cov-$h" "$f" 2>/dev/null |
		    awk -v f="$f" -v h="$h" -F'|' '
		    function flush() { if (from != "") out = out (out ? " " : "") (from == to ? from : from "-" to) }
		    $2 ~ /^ *0$/ { n = $1 + 0; if (from != "" && n == to + 1) to = n; else { flush(); from = to = n } }
		    END { flush(); if (out != "") print h " " f ": " out }' >> "$unreached"
	done
	printf '%-8s %s inputs replayed\n' "$h" "${inputs:-0}" >&2
done
# Files several harnesses target: their profiles merged, the binaries
# exported together, one "all" row each.
for f in $(for h in $harnesses; do targets "$h"; done | tr ' ' '\n' | sort | uniq -d); do
	hs=$(sharing "$f")
	objs="" profs=""
	for h in $hs; do
		objs="$objs${objs:+ -object }$B/cov-$h"
		profs="$profs $B/$h.profdata"
	done
	# shellcheck disable=SC2086
	"$PROFDATA" merge -sparse -o "$B/all.profdata" $profs || exit 2
	# shellcheck disable=SC2086
	"$LLVMCOV" export -summary-only -instr-profile="$B/all.profdata" $objs "$f" > "$B/all.json" || exit 2
	set -- $(summary "$B/all.json" "$f")
	printf '%-8s %-32s %7s %8.1f%% %11s %8.1f%%\n' all "$f" "$1" "$2" "$3" "$4" >> "$table"
	below "$2" "$4" && status=1
	# shellcheck disable=SC2086
	"$LLVMCOV" show -instr-profile="$B/all.profdata" $objs "$f" 2>/dev/null |
	    awk -v f="$f" -F'|' '
	    function flush() { if (from != "") out = out (out ? " " : "") (from == to ? from : from "-" to) }
	    $2 ~ /^ *0$/ { n = $1 + 0; if (from != "" && n == to + 1) to = n; else { flush(); from = to = n } }
	    END { flush(); if (out != "") print "all " f ": " out }' >> "$unreached"
done
cat "$table"
echo
echo "unreached lines (file: line numbers), also in $unreached:"
cat "$unreached"
if [ "$status" -ne 0 ]; then
	echo "fuzz-coverage: a target is below ${MIN_LINES}% of lines or ${MIN_BRANCHES}% of branches" >&2
	[ "${COV_STRICT:-1}" = 0 ] && status=0
fi
exit $status
