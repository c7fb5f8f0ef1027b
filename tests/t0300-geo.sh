#!/bin/sh
# t0300-geo.sh: visitor location (CONTRACT 6) against real MaxMind databases:
# the test_geo unit program with the fixture databases of
# tests/fixtures/make-mmdb.pl, then its --lookups mode against the shared
# MaxMind test databases and their expected_lookups.tsv.
. "$(dirname "$0")/setup.sh"

geo=$BUILD/tests/unit/test_geo
if [ ! -x "$geo" ]; then
	notok "test_geo not built ($geo)"
	exit 1
fi

# run_geo ARGS...: the unit program's own ok/not ok lines, plus a failure
# when it exits non-zero without saying why (a crash, a sanitizer report).
run_geo() {
	_wrap "$geo" "$@" > "$T/geo.out" 2> "$T/geo.err"
	_rc=$?
	cat "$T/geo.out"
	if [ "$_rc" -ne 0 ] && ! grep -q '^not ok ' "$T/geo.out"; then
		notok "test_geo $* exited with status $_rc: $(tail -n 5 "$T/geo.err" | tr '\n' ' ')"
	fi
}

fixtures="$TOP/tests/fixtures/make-mmdb.pl"
if ! perl -MMaxMind::DB::Writer::Tree -e 1 2>/dev/null; then
	skip "fixture databases: perl MaxMind::DB::Writer::Tree missing (Debian: libmaxmind-db-writer-perl)"
	run_geo
elif perl "$fixtures" "$T/country.mmdb" country && perl "$fixtures" "$T/city.mmdb" city; then
	ok "make-mmdb.pl wrote the country and city fixture databases"
	TEST_GEO_MMDB_COUNTRY="$T/country.mmdb" TEST_GEO_MMDB_CITY="$T/city.mmdb" \
	    run_geo
else
	notok "make-mmdb.pl failed"
fi

geoip=$SHARED/data/geoip
if [ ! -d "$geoip" ]; then
	skip "../shared/data/geoip not present: MaxMind test database lookups not run"
	exit 0
fi
for db in "$geoip"/*.mmdb; do
	[ -f "$db" ] || continue
	run_geo --lookups "$geoip/expected_lookups.tsv" "$db"
done
