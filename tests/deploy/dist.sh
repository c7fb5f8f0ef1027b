# dist.sh: sourced by the tests of the release archive (t0830, t0835,
# t0840) after tests/setup.sh.
#
#   dist_archive    DIST_TGZ: the archive of `make dist` as this checkout
#                   builds it (make dist, which rebuilds what changed, one
#                   test at a time: flock), DIST_NAME its folder's name
#                   (consent-VERSION); skips the test with one line when
#                   the release cannot be built here (no static archives,
#                   esbuild or node_modules), a failure under CI=true

dist_archive() {
	local _log=$T/make-dist.log
	DIST_NAME=consent-$(cat "$TOP/VERSION")
	DIST_TGZ=$TOP/build/$DIST_NAME-linux-x86_64.tar.gz
	mkdir -p "$TOP/build"
	if ! (cd "$TOP" && flock "$TOP/build/.dist.lock" nice make -s dist) > "$_log" 2>&1; then
		if [ "${CI:-}" = true ]; then
			notok "make dist failed: $(grep -E 'dist.sh|Error' "$_log" | head -n 3 | tr '\n' ' ')"
			exit 1
		fi
		skip "make dist failed here ($(grep -E 'dist.sh|Error' "$_log" | head -n 2 | tr '\n' ' ')): release checks not run"
		exit 0
	fi
}
