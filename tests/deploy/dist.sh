# dist.sh: sourced by the tests of the release archive (t0830, t0835,
# t0840) after tests/setup.sh.
#
#   dist_archive    DIST_TGZ: the archive of `make dist` as this checkout
#                   builds it (made once with `make dist` when
#                   build/consent-VERSION-linux-x86_64.tar.gz is missing or
#                   older than build/dist's programs), DIST_NAME its folder's
#                   name (consent-VERSION); skips the test with one line
#                   when the release cannot be built here (no static
#                   archives, esbuild or node_modules), a failure under
#                   CI=true

dist_archive() {
	local _v _log=$T/make-dist.log
	_v=$(cat "$TOP/VERSION")
	DIST_NAME=consent-$_v
	DIST_TGZ=$TOP/build/$DIST_NAME-linux-x86_64.tar.gz
	if [ ! -f "$DIST_TGZ" ] || [ -n "$(find "$TOP/build/dist/cgi-bin" "$TOP/build/dist/bin" "$TOP/build/sdk" "$TOP/build/admin" "$TOP/dist" "$TOP/tools/dist.sh" \
	    -newer "$DIST_TGZ" -type f 2>/dev/null | head -n 1)" ]; then
		if ! (cd "$TOP" && nice make -s dist) > "$_log" 2>&1; then
			if [ "${CI:-}" = true ]; then
				notok "make dist failed: $(grep -E 'dist.sh|Error' "$_log" | head -n 3 | tr '\n' ' ')"
				exit 1
			fi
			skip "make dist failed here ($(grep -E 'dist.sh|Error' "$_log" | head -n 2 | tr '\n' ' ')): release checks not run"
			exit 0
		fi
	fi
}
