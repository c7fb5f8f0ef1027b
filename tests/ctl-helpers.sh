# ctl-helpers.sh: sourced after setup.sh by the consentctl tests (t01NN),
# and by the other tests that look into the database.
#
#   run ARGS...              consentctl; stdout in $T/out, stderr in $T/err, status in $rc
#   fails CODE MESSAGE DESC  the last run exited CODE, wrote exactly one stderr line
#                            "consentctl: MESSAGE" and nothing on stdout
#   succeeds OUTPUT DESC     the last run exited 0, printed exactly OUTPUT, no stderr
#   db SQL...                SQL on the database $CONSENT_DB names: psql as
#                            postgres, unaligned and without headers, on the
#                            PostgreSQL test database setup.sh made
#                            (CONSENT_TEST_STORE=postgres); sqlite3 on a file
#                            (the SQLite test database, or one a test made
#                            itself, e.g. an old version to upgrade); without
#                            SQL, the statements on stdin.  Both print
#                            rows one a line, columns |-separated, NULL as
#                            nothing.  Write SQL both read, or branch on
#                            store_is_postgres: PRAGMA, printf, group_concat,
#                            json_* and INSERT OR IGNORE are SQLite's; a boolean
#                            prints 1 or 0 in SQLite, t or f in PostgreSQL;
#                            PostgreSQL checks foreign keys; mau_counts has 16
#                            slots per site and month there (schema_pg.sql):
#                            the month's count is their sum
#   snap / unchanged DESC    dump that database; later, ok when the dump is the
#                            same (PostgreSQL: pg_dump's, each table's rows sorted)
#   pg_dump_db               (PostgreSQL) the whole test database as pg_dump
#                            prints it, to scan for bytes that must not be stored
#   pg_from_sqlite FILE TABLE...
#                            (PostgreSQL) copy the rows of TABLEs of the SQLite
#                            database FILE into the test database, column by
#                            column of the same name, foreign keys unchecked
#                            (sites and configs name each other; SQLite does
#                            not check them either): a situation made with
#                            SQLite's SQL (a fixture, old rows, a version-3
#                            database upgraded by consentctl init) on both
#                            stores.  mau_counts's one row per site and month
#                            goes to slot 0 (the sum is the count); each
#                            identity then moves past the highest id copied

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

# The PostgreSQL test database's conninfo, as setup.sh made it.
_pg_test_db=
store_is_postgres && _pg_test_db=$CONSENT_DB
_db_is_pg() { [ -n "$_pg_test_db" ] && [ "$CONSENT_DB" = "$_pg_test_db" ]; }

db() {
	local _a _c=()
	if ! _db_is_pg; then
		sqlite3 "$CONSENT_DB" "$@"
		return
	fi
	for _a in "$@"; do _c+=(-c "$_a"); done
	pg_psql "$PG_DB" -q -A -t ${_c[@]+"${_c[@]}"}
}

pg_dump_db() { "$_PG_BIN/pg_dump" --inserts -d "$(pg_admin_conninfo "$PG_DB")"; }

# The PostgreSQL form of .dump: pg_dump's rows come in the heap's order,
# which an UPDATE of a row to the same values changes, so each object's
# lines are sorted (a block per "-- Name:" comment); a sequence's position
# (a refused insert uses a number) and the \restrict key (random) are left
# out.  Schema and rows alike are compared.
_pg_snap() {
	pg_dump_db | grep -Ev '^\\(un)?restrict |^SELECT pg_catalog\.setval\(' |
	    awk '/^-- (Data for )?Name: / { b++ } { printf "%08d %s\n", b, $0 }' | LC_ALL=C sort -s -k1,1n -k2
}
_snap() { if _db_is_pg; then _pg_snap; else db .dump; fi; }
snap() { _snap > "$T/snap"; }
unchanged() { if _snap | cmp -s - "$T/snap"; then ok "$1"; else notok "$1"; fi; }

pg_from_sqlite() { # FILE TABLE...
	local _f=$1 _t _cols _sel _slot
	shift
	for _t in "$@"; do
		_cols=$(pg_psql "$PG_DB" -q -A -t -c "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns
		    WHERE table_schema = 'public' AND table_name = '$_t' AND column_name <> 'slot'")
		_slot=
		[ "$_t" = mau_counts ] && _slot=", slot"
		# A double in all its digits (the shell prints 15: a digest covers them).
		_sel=$(printf '%s\n' "$_cols" | sed "s/\([a-z_0-9][a-z_0-9]*\)/CASE WHEN typeof(\1) = 'real' THEN printf('%!.17g', \1) ELSE \1 END/g")
		sqlite3 -csv "$_f" "SELECT $_sel${_slot:+, 0} FROM $_t" > "$T/copy.csv" || return 1
		pg_psql "$PG_DB" -q -c 'SET session_replication_role = replica' \
		    -c "\\copy $_t ($_cols$_slot) FROM pstdin WITH (FORMAT csv)" < "$T/copy.csv" || return 1
		case "$_cols," in
		"id, "*) pg_psql "$PG_DB" -q -A -t -c "SELECT setval(pg_get_serial_sequence('$_t', 'id'), max(id)) FROM $_t
		    HAVING max(id) IS NOT NULL" > /dev/null || return 1 ;;
		esac
	done
}
