# ctl-helpers.sh: sourced after setup.sh by the consentctl tests (t01NN).
#
#   run ARGS...              consentctl; stdout in $T/out, stderr in $T/err, status in $rc
#   fails CODE MESSAGE DESC  the last run exited CODE, wrote exactly one stderr line
#                            "consentctl: MESSAGE" and nothing on stdout
#   succeeds OUTPUT DESC     the last run exited 0, printed exactly OUTPUT, no stderr
#   db SQL...                sqlite3 on the test database
#   snap / unchanged DESC    dump the database; later, ok when the dump is the same

run() { ctl "$@" > "$T/out" 2> "$T/err"; rc=$?; }

fails() {
	_err=$(cat "$T/err")
	_lines=$(wc -l < "$T/err" | tr -d ' ')
	if [ "$rc" = "$1" ] && [ "$_err" = "consentctl: $2" ] && [ "$_lines" = 1 ] && [ ! -s "$T/out" ]; then
		ok "$3"
	else
		notok "$3: exit $rc, stderr '$_err', stdout '$(head -c 100 "$T/out")'; want $1 'consentctl: $2'"
	fi
}

succeeds() {
	_out=$(cat "$T/out")
	if [ "$rc" = 0 ] && [ "$_out" = "$1" ] && [ ! -s "$T/err" ]; then
		ok "$2"
	else
		notok "$2: exit $rc, stdout '$(head -c 200 "$T/out")', stderr '$(cat "$T/err")'; want '$1'"
	fi
}

db() { sqlite3 "$CONSENT_DB" "$@"; }
snap() { db .dump > "$T/snap"; }
unchanged() { if db .dump | cmp -s - "$T/snap"; then ok "$1"; else notok "$1"; fi; }
