#!/bin/sh
# run.sh SECONDS [HARNESS...]: build the libFuzzer harnesses and run each.
#
# Builds common/**/*.c, the generated sources and fuzz/HARNESS.c with clang
# (-fsanitize=fuzzer,address,undefined) under $FUZZ_BUILD (build/fuzz), then
# runs each harness for SECONDS (default 60) on its seeds (fuzz/corpus/H/),
# its saved regressions (tests/fuzz-regressions/H/) and the corpus of
# earlier runs, which grows in fuzz/out/corpus/H/.  Crashing inputs land in
# fuzz/out/crashes/H/, each run's output in fuzz/out/logs/H.log, and one
# line per harness in fuzz/out/summary.txt:
#
#   query    seconds=60 execs=1234567 corpus=210 crash=no cpu=58
#
# (cpu: the fuzzer's user+system seconds, when /usr/bin/time is there; on a
# shared or niced machine it is less than the seconds asked for.)
# Exit status 1 when any harness found a crash (or a leak, timeout or
# out-of-memory, which libFuzzer reports the same way), 2 when the build
# fails.  Harnesses: query consent scripts lang origin ua geo config admin
# (fuzz/README.md says what each reads).
#
#   CLANG         the compiler (clang)
#   FUZZ_BUILD    object directory (build/fuzz)
#   FUZZ_JOBS     harnesses run at once (1; each uses one core)
#   FUZZ_FLAGS    more libFuzzer flags, e.g. "-only_ascii=1"
#   FUZZ_NO_LEAKS 1: leaks are not findings (to fuzz past a known leak
#                 until it is fixed; crashes still are)
#   FUZZ_MERGE    1: after the run, minimise the committed seeds and the
#                 grown corpus with -merge=1 into fuzz/corpus/H/ (what
#                 fuzz/depth.sh does after each long run)
set -u
cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
# Every fuzz/H.c but the replayer is a harness.
all=$(for f in fuzz/*.c; do h=${f##*/}; h=${h%.c}; [ "$h" = replay ] || printf '%s ' "$h"; done)
harnesses=${*:-$all}
CLANG=${CLANG:-clang}
B=${FUZZ_BUILD:-build/fuzz}
OUT=fuzz/out
JOBS=${FUZZ_JOBS:-1}
leaks=1
[ "${FUZZ_NO_LEAKS:-0}" = 1 ] && leaks=0

case $secs in
''|0|*[!0-9]*) echo "usage: fuzz/run.sh SECONDS [HARNESS...]" >&2; exit 2 ;;
esac
if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "fuzz: $CLANG not found (apt-get install clang)" >&2
	exit 2
fi

# The Makefile's flags, minus -Werror: a newer clang's new warning must not
# stop a fuzzing run (make check keeps the harnesses warning-free with gcc).
CPPFLAGS="-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -iquote common -iquote fuzz -iquote $B/gen"
WARN="-Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes \
-Wmissing-declarations -Wshadow -Wpointer-arith -Wcast-qual -Wwrite-strings \
-Wformat=2 -Wvla -Wold-style-definition -Wnull-dereference -Wundef"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS="-std=c11 -g -O1 $WARN"
LIBS="-lsqlite3 -lcjson -lcrypto -lmaxminddb -lm"

# Compile one source to an object when the object is older than the source
# or any header.
compile() { # src obj
	if [ -f "$2" ] && [ ! "$1" -nt "$2" ] && [ -z "$(find common fuzz "$B/gen" -name '*.h' -newer "$2")" ]; then
		return 0
	fi
	mkdir -p "$(dirname "$2")"
	# shellcheck disable=SC2086
	$CLANG $CPPFLAGS $CFLAGS $SAN -fsanitize=fuzzer-no-link -c -o "$2" "$1"
}

build() {
	${MAKE:-make} -s B="$B" DBPATH=/nonexistent/consent.db "$B/gen/settings.h" \
	    "$B/gen/defaults_data.c" "$B/gen/defaults_hash.c" "$B/gen/schema_data.c" \
	    "$B/gen/trackers_data.c" || return 1
	objs=""
	for src in $(find common -name '*.c' | LC_ALL=C sort) "$B"/gen/*.c; do
		# The library of the default build: the SQLite store (store.c
		# compiled for it alone); the PostgreSQL store is make
		# STORE=postgres's and consentctl's.
		case $src in common/store/pg/*) continue ;; esac
		obj=$B/obj/$(basename "$src" .c).o
		compile "$src" "$obj" || return 1
		objs="$objs $obj"
	done
	rm -f "$B/libfuzzcommon.a"
	# shellcheck disable=SC2086
	ar rcs "$B/libfuzzcommon.a" $objs || return 1
	for h in $harnesses; do
		if [ ! -f "fuzz/$h.c" ]; then
			echo "fuzz: no harness fuzz/$h.c (have: $all)" >&2
			return 1
		fi
		# shellcheck disable=SC2086
		$CLANG $CPPFLAGS $CFLAGS $SAN -fsanitize=fuzzer -o "$B/fuzz-$h" \
		    "fuzz/$h.c" "$B/libfuzzcommon.a" $LIBS || return 1
	done
}

# Per-harness libFuzzer flags: the dictionary and the largest input worth
# trying (JSON bodies and config documents need room; headers are capped
# at 8 KiB by http_env, so a little over that shows the cap holds).
flags() {
	case $1 in
	consent|scripts|admin) echo "-dict=fuzz/json.dict -max_len=16384" ;;
	config|prepared) echo "-dict=fuzz/json.dict -max_len=32768" ;;
	proof) echo "-max_len=4096" ;;
	query|ua) echo "-dict=fuzz/text.dict -max_len=9000" ;;
	*) echo "-dict=fuzz/text.dict -max_len=1024" ;;
	esac
}

run() { # harness: runs it, writes $OUT/logs/H.result
	h=$1
	mkdir -p "$OUT/corpus/$h" "$OUT/crashes/$h"
	set -- "$OUT/corpus/$h" "fuzz/corpus/$h"
	[ -d "tests/fuzz-regressions/$h" ] && set -- "$@" "tests/fuzz-regressions/$h"
	before=$(ls "$OUT/crashes/$h" | wc -l)
	timer=""
	[ -x /usr/bin/time ] && timer="/usr/bin/time -f %U+%S -o $OUT/logs/$h.cpu"
	rm -f "$OUT/logs/$h.cpu"
	# shellcheck disable=SC2046,SC2086
	ASAN_OPTIONS=detect_leaks=$leaks \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$timer "$B/fuzz-$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -detect_leaks=$leaks \
	    -print_final_stats=1 -artifact_prefix="$OUT/crashes/$h/" \
	    $(flags "$h") ${FUZZ_FLAGS:-} "$@" > "$OUT/logs/$h.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/logs/$h.log" | tail -n 1)
	after=$(ls "$OUT/crashes/$h" | wc -l)
	crash=no
	if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
		crash="yes ($(ls -t "$OUT/crashes/$h" | head -n 1 | sed "s|^|$OUT/crashes/$h/|"))"
	fi
	cpu=$(awk -F+ '/^[0-9.]+\+[0-9.]+$/ { c = sprintf("%d", $1 + $2) } END { printf "%s", c }' \
	    "$OUT/logs/$h.cpu" 2>/dev/null)
	if [ "${FUZZ_MERGE:-0}" = 1 ] && [ "$crash" = no ]; then
		merge "$h" || crash="yes (merge failed: $OUT/logs/$h.merge.log)"
	fi
	printf '%-8s seconds=%s execs=%s corpus=%s crash=%s%s\n' "$h" "$secs" \
	    "${execs:-0}" "$(ls "$OUT/corpus/$h" | wc -l | tr -d ' ')" "$crash" \
	    "${cpu:+ cpu=$cpu}" > "$OUT/logs/$h.result"
}

# Minimise the committed seeds and the grown corpus into a fresh folder
# (-merge=1 keeps the smallest inputs that reach every feature), which then
# replaces fuzz/corpus/H/.
merge() { # harness
	rm -rf "$OUT/merge/$1"
	mkdir -p "$OUT/merge/$1"
	# shellcheck disable=SC2046
	ASAN_OPTIONS=detect_leaks=0 "$B/fuzz-$1" -merge=1 -timeout=10 -rss_limit_mb=2048 \
	    $(flags "$1") "$OUT/merge/$1" "fuzz/corpus/$1" "$OUT/corpus/$1" \
	    > "$OUT/logs/$1.merge.log" 2>&1 || return 1
	[ -n "$(ls "$OUT/merge/$1")" ] || return 1
	rm -rf "fuzz/corpus/$1"
	mv "$OUT/merge/$1" "fuzz/corpus/$1"
}

mkdir -p "$OUT/logs"
start=$(date +%s)
echo "fuzz: building with $CLANG in $B"
if ! build; then
	echo "fuzz: build failed" >&2
	exit 2
fi
echo "fuzz: running $(echo $harnesses | wc -w) harness(es) for ${secs}s each, $JOBS at a time"
running=0
for h in $harnesses; do
	rm -f "$OUT/logs/$h.result"
	run "$h" &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait
		running=0
	fi
done
wait

: > "$OUT/summary.txt"
status=0
for h in $harnesses; do
	if [ -f "$OUT/logs/$h.result" ]; then
		cat "$OUT/logs/$h.result" >> "$OUT/summary.txt"
	else
		printf '%-8s seconds=%s execs=0 corpus=0 crash=yes (did not run)\n' "$h" "$secs" >> "$OUT/summary.txt"
	fi
done
cat "$OUT/summary.txt"
if grep -q 'crash=yes' "$OUT/summary.txt"; then
	echo "fuzz: crash found: see $OUT/logs/ and $OUT/crashes/; save the input under tests/fuzz-regressions/HARNESS/" >&2
	status=1
fi
echo "fuzz: done in $(($(date +%s) - start))s"
exit $status
