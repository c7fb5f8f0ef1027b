# node-tap.sh: sourced by the SDK suites (t0600 unit, t0610 browser).
#
#   sdk_need WHAT...     each of node, node_modules, chromium, sdk (the built
#                        build/sdk/consent.js), lighttpd, report (the report
#                        page built, with node_modules/uplot), admin (the
#                        dashboard's page built, cgi-bin/admin, tests/admin-clock,
#                        consentctl, openssl, lighttpd's mod_openssl), engines
#                        (firefox-esr, WebKitWebDriver, MiniBrowser, xvfb-run,
#                        node_modules/puppeteer-core) must be present:
#                        otherwise one "skip - ..." line and exit 0, or, when
#                        CI=true, one "not ok - ..." line and exit 1 (a
#                        machine without Chromium is no reason to skip in CI)
#   node_tap ARGS...     node --test --test-reporter=tap ARGS, its TAP on
#                        stdout with each top-level "not ok N - name" line
#                        followed on the same line by the test's error, so
#                        that tests/run.sh, which prints only those lines,
#                        shows why.  Exit status: node's.

sdk_missing=""
sdk_need() {
	for _w in "$@"; do
		case $_w in
		node) command -v node >/dev/null 2>&1 || sdk_missing="$sdk_missing, node" ;;
		node_modules)
			[ -f "$TOP/node_modules/playwright-core/package.json" ] &&
			[ -f "$TOP/node_modules/axe-core/axe.min.js" ] ||
				sdk_missing="$sdk_missing, node_modules (npm ci)" ;;
		chromium) [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || sdk_missing="$sdk_missing, ${CHROMIUM:-/usr/bin/chromium}" ;;
		sdk) [ -f "$TOP/build/sdk/consent.js" ] || sdk_missing="$sdk_missing, build/sdk/consent.js (esbuild; make)" ;;
		lighttpd) PATH=$PATH:/usr/sbin:/sbin command -v lighttpd >/dev/null 2>&1 || sdk_missing="$sdk_missing, lighttpd" ;;
		engines)
			for _b in "${FIREFOX:-/usr/bin/firefox-esr}" "${WEBKIT_DRIVER:-/usr/bin/WebKitWebDriver}"; do
				[ -x "$_b" ] || sdk_missing="$sdk_missing, $_b"
			done
			command -v xvfb-run >/dev/null 2>&1 || sdk_missing="$sdk_missing, xvfb-run"
			[ -n "$(node -e 'import("./tests/engines/driver.mjs").then((d) => console.log(d.miniBrowser() || ""))' 2>/dev/null)" ] ||
				sdk_missing="$sdk_missing, WebKitGTK's MiniBrowser"
			[ -f "$TOP/node_modules/puppeteer-core/package.json" ] || sdk_missing="$sdk_missing, node_modules/puppeteer-core (npm ci)" ;;
		report)
			[ -f "$TOP/node_modules/uplot/package.json" ] && [ -f "$TOP/build/report/report.html" ] ||
				sdk_missing="$sdk_missing, the report page (node_modules/uplot: npm ci; esbuild; make)" ;;
		admin)
			[ -f "$TOP/build/admin/admin.js" ] && [ -f "$TOP/build/admin/uplot.js" ] ||
				sdk_missing="$sdk_missing, build/admin/ (esbuild, npm ci; make)"
			[ -x "$BUILD/cgi-bin/admin" ] && [ -x "$BUILD/tests/admin-clock" ] && [ -x "$BUILD/bin/consentctl" ] ||
				sdk_missing="$sdk_missing, cgi-bin/admin, tests/admin-clock and bin/consentctl (make)"
			command -v openssl >/dev/null 2>&1 || sdk_missing="$sdk_missing, openssl"
			ls /usr/lib/lighttpd/mod_openssl.so >/dev/null 2>&1 ||
				sdk_missing="$sdk_missing, lighttpd's mod_openssl (lighttpd-mod-openssl)" ;;
		esac
	done
	[ -z "$sdk_missing" ] && return 0
	if [ "${CI:-}" = true ]; then
		notok "missing${sdk_missing#,} (sh tools/deps.sh): required when CI=true"
		exit 1
	fi
	skip "missing${sdk_missing#,} (sh tools/deps.sh): not run"
	exit 0
}

node_tap() {
	node --test --test-reporter=tap "$@" > "$T/tap" 2>&1
	_rc=$?
	# A failing test's YAML block holds "error: |-" then the message lines;
	# the first non-empty one (and the next while it ends in ":", as
	# assert's "Expected values to be strictly equal:") joins its "not ok"
	# line.
	awk '
	function flush() { if (pending != "") { print pending (msg != "" ? ": " msg : ""); pending = ""; msg = "" } }
	/^not ok / { flush(); pending = $0; grab = 0; next }
	pending != "" && /^  error: / { v = $0; sub(/^  error: /, "", v); if (v != "|-" && v != "|" && v != ">-") { msg = v; gsub(/^'\''|'\''$/, "", msg) } else grab = 1; next }
	pending != "" && grab && /^    [^ ]/ { v = $0; sub(/^ +/, "", v); msg = msg (msg != "" ? " " : "") v; if (msg !~ /:$/ && v != "+ actual - expected") grab = 0; next }
	pending != "" && /^  \.\.\.$/ { flush(); print; next }
	pending != "" { print; next }
	{ print }
	END { flush() }' "$T/tap"
	return $_rc
}
