#!/bin/sh
# t0956-proof-differential.sh: the C proof code against the independent
# tools/verify-export.py (issue 28's differential harnesses).  Every input
# of the proof harness's corpus (fuzz/corpus/proof/) and its saved findings
# (tests/fuzz-regressions/proof/) is replayed through fuzz/proof.c linked
# to fuzz/replay.c, which generates a log from it (entries with fields of
# every kind, seals, inclusion proofs, perhaps one change after sealing),
# checks it with the C code and writes the export, the seals and a receipt
# with its verdict; verify-export.py must come to the same verdict on the
# same files: the log verifies with the same number of seals and the same
# head, or it does not; the receipt's proofs hold, or they do not.  The
# harness's own short fuzzing run is t0950's.
. "$(dirname "$0")/setup.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "proof differential: python3 not installed"
	exit 0
fi
lib=$BUILD/obj/libcommon.a
if [ ! -f "$lib" ]; then
	notok "libcommon.a not built ($lib)"
	exit 0
fi
san=""
syms=$(nm "$lib" 2>/dev/null)
case $syms in *__asan_*) san="$san -fsanitize=address" ;; esac
case $syms in *__ubsan_*) san="$san -fsanitize=undefined -fno-sanitize-recover=all" ;; esac
# shellcheck disable=SC2086
if ! ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -iquote "$TOP/common" \
    -iquote "$TOP/fuzz" -O1 -g $san -o "$T/replay-proof" "$TOP/fuzz/replay.c" \
    "$TOP/fuzz/proof.c" "$lib" -lsqlite3 -lcjson -lcrypto -lmaxminddb -lm > "$T/cc.err" 2>&1; then
	notok "proof differential: the harness does not build: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
	exit 0
fi

verify=$TOP/tools/verify-export.py
n=0 same=0 faults=0 bad=""
for dir in "$TOP/fuzz/corpus/proof" "$TOP/tests/fuzz-regressions/proof"; do
	[ -d "$dir" ] || continue
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		out=$T/case
		rm -rf "$out"
		mkdir -p "$out"
		if ! FUZZ_PROOF_OUT=$out "$T/replay-proof" "$f" > /dev/null 2> "$T/replay.err"; then
			bad="$bad ${f##*/}(C: $(grep -v '^replay: ' "$T/replay.err" | head -n 1))"
			continue
		fi
		c=$(cat "$out/verdict")
		py=$(python3 "$verify" "$(cat "$out/key")" "$out/entries.jsonl" "$out/seals.jsonl" 2>&1)
		pyrc=$?
		case $c in
		ok*)
			# "ok SEALS HEAD" against "ok N seals, head HEAD"
			set -- $c
			want="ok $2 seals, head $3"
			[ "$pyrc" = 0 ] && [ "$py" = "$want" ] || { bad="$bad ${f##*/}(C: $c; python: $py)"; continue; } ;;
		*)
			faults=$((faults + 1))
			[ "$pyrc" = 1 ] && case $py in ok*) false ;; *) true ;; esac ||
			    { bad="$bad ${f##*/}(C: $c; python: exit $pyrc $py)"; continue; } ;;
		esac
		rc_py=$(python3 "$verify" --receipt "$out/receipt.json" > "$T/receipt.out" 2>&1; echo $?)
		case $(cat "$out/receipt-verdict") in
		ok) [ "$rc_py" = 0 ] || { bad="$bad ${f##*/}(receipt: C ok; python: $(head -c 200 "$T/receipt.out"))"; continue; } ;;
		*) [ "$rc_py" = 1 ] || { bad="$bad ${f##*/}(receipt: C fault; python: exit $rc_py)"; continue; } ;;
		esac
		same=$((same + 1))
	done
done
check test "$n" -gt 0 "proof differential: the corpus has inputs ($n)"
check test -z "$bad" "proof differential: C and verify-export.py agree on $same of $n generated logs ($faults changed after sealing, found by both)${bad:+; differ:$bad}"
