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

# The proof code reads no store and no request: once is enough (t0900
# replays the same inputs under the sanitizers and valgrind).
if fcgi_mode || store_is_postgres || [ -n "${SANITIZED:-}" ] || [ "${VALGRIND:-0}" = 1 ]; then
	skip "proof differential: runs in the plain pass only"
	exit 0
fi
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

# The C side: each input's log, seals, receipt and verdicts into a folder
# of its own.
n=0 bad=""
mkdir -p "$T/cases"
for dir in "$TOP/fuzz/corpus/proof" "$TOP/tests/fuzz-regressions/proof"; do
	[ -d "$dir" ] || continue
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		out=$T/cases/$n
		mkdir -p "$out"
		echo "${f#"$TOP"/}" > "$out/input"
		if ! FUZZ_PROOF_OUT=$out "$T/replay-proof" "$f" > /dev/null 2> "$T/replay.err"; then
			bad="$bad ${f##*/}(C: $(grep -v '^replay: ' "$T/replay.err" | head -n 1))"
			rm -rf "$out"
		fi
	done
done
check test "$n" -gt 0 "proof differential: the corpus has inputs ($n)"
check test -z "$bad" "proof differential: the C code checked every generated log${bad:+; failed:$bad}"

# The Python side, one process for all (verify-export.py run as a script
# once per check, its output and exit status caught).
python3 - "$TOP/tools/verify-export.py" "$T/cases" > "$T/py.out" 2>&1 <<'PY'
import contextlib, io, os, runpy, sys

verify, cases = sys.argv[1], sys.argv[2]

def run(*args):
    sys.argv = [verify] + list(args)
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_path(verify, run_name="__main__")
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except Exception as e:  # a crash of the verifier is a difference too
            print("exception %r" % e)
            code = 2
    return code, out.getvalue().strip()

same = faults = 0
differ = []
for name in sorted(os.listdir(cases), key=int):
    d = os.path.join(cases, name)
    rd = lambda f: open(os.path.join(d, f)).read().strip()
    key, verdict, receipt_verdict = rd("key"), rd("verdict"), rd("receipt-verdict")
    code, out = run(key, os.path.join(d, "entries.jsonl"), os.path.join(d, "seals.jsonl"))
    if verdict.startswith("ok"):
        _, seals, head = verdict.split()
        agree = code == 0 and out == "ok %s seals, head %s" % (seals, head)
    else:
        faults += 1
        agree = code == 1 and not out.startswith("ok")
    rcode, rout = run("--receipt", os.path.join(d, "receipt.json"))
    ragree = (rcode == 0) == (receipt_verdict == "ok") and rcode in (0, 1)
    if agree and ragree:
        same += 1
    else:
        differ.append("%s (C: %s, receipt %s; python: exit %d %s, receipt exit %d %s)" % (
            rd("input"), verdict, receipt_verdict, code, out[:120], rcode, rout[:120]))
print("%d %d" % (same, faults))
for line in differ[:5]:
    print(line)
PY
set -- $(head -n 1 "$T/py.out")
check test "$(wc -l < "$T/py.out")" -eq 1 "proof differential: C and verify-export.py agree on ${1:-0} generated logs and receipts (${2:-0} changed after sealing, found by both)$( [ "$(wc -l < "$T/py.out")" -gt 1 ] && printf '; differ: %s' "$(tail -n +2 "$T/py.out" | tr '\n' ' ')")"
