#!/bin/bash
# t0140-report.sh: consentctl report (docs/consentctl.md "The report"): a log
# with known proportions (tests/fixtures/report-log.sql) gives exactly those
# figures with --json, by either walk of the store; the HTML page holds the
# same JSON, escaped so that no text of the data ends its <script>; dates,
# an unknown site and an empty period give one clear message and an exit
# status.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

name='</script><b>Shop</b> & "Co"'
ctl site add shop --name "$name" --domain shop.example >/dev/null
if store_is_postgres; then
	# The fixture is SQLite's SQL: it fills a SQLite database holding the
	# same site (id 1 in both), whose rows are copied into the test database.
	ctl --db "$T/fixture.db" init && ctl --db "$T/fixture.db" site add shop --name "$name" --domain shop.example >/dev/null &&
	    sqlite3 "$T/fixture.db" < "$TOP/tests/fixtures/report-log.sql" || notok "the fixture in a SQLite database"
	check pg_from_sqlite "$T/fixture.db" consent_log mau_counts scripts "PostgreSQL: the fixture's rows copied into the test database"
else
	db < "$TOP/tests/fixtures/report-log.sql"
fi
P=(--since 2026-10-01 --until 2026-10-10)

j() { jq -c "$1" "$T/out"; }
is() { # JQ VALUE DESC
	_got=$(jq -c "$1" "$T/out" 2>&1)
	if [ "$_got" = "$2" ]; then ok "$3"; else notok "$3: $1 is $_got, want $2"; fi
}

# --- the figures -------------------------------------------------------------
run report shop "${P[@]}" --json
check test "$rc" = 0 -a ! -s "$T/err" "report --json: exit 0, nothing on stderr"
cp "$T/out" "$T/report.json"
is '.site' "{\"key\":\"shop\",\"name\":$(jq -cn --arg n "$name" '$n'),\"tier\":\"free\"}" "site: key, name as given, tier"
is '.period' '{"since":"2026-10-01","until":"2026-10-10","days":10}' "period: both ends included"
is '.totals' '{"entries":750,"impressions":400,"decisions":350,"opt_in":210,"opt_out":70,"partial":20,"acknowledge":50,"visitors":400,"opt_in_percent":60,"opt_out_percent":20,"partial_percent":5.7,"acknowledge_percent":14.3}' \
    "totals: the entries one millisecond outside the period are not counted; shares of the decisions"
is '[.by_region[] | [.key, .decisions, .opt_in_percent, .opt_out_percent, .partial_percent, .acknowledge_percent]]' \
    '[["gdpr",200,60,30,10,0],["default",100,90,10,0,0],["us_state_laws",50,0,0,0,100]]' "by region: 60% opt-in in gdpr, 90% in default, largest first"
is '[.by_device[] | [.key, .decisions, .opt_in, .opt_in_percent]]' '[["desktop",210,126,60],["mobile",70,42,60],["tablet",70,42,60]]' "by device type"
is '[.by_browser[] | [.key, .decisions]]' '[["Chrome",175],["Firefox",175]]' "by browser"
is '[.by_position[] | [.key, .decisions, .opt_in_percent, .opt_out_percent]]' '[["bottom-full",250,48,24],["center-modal",100,90,10]]' "by banner position"
is '[.daily[] | [.day, .impressions, .decisions, .opt_in_percent]] | [length, .[0], .[9]]' '[10,["2026-10-01",40,35,60],["2026-10-10",40,35,60]]' "daily: every day, its impressions, decisions and shares"
is '[.categories[] | [.category, .visitors, .allowed, .percent]]' \
    '[["necessary",350,350,100],["functional",350,230,65.7],["analytics",350,230,65.7],["marketing",350,210,60]]' \
    "categories in the config's order: the share of visitors who allowed each"
is '.time_to_action | [.count, .median_ms, [.buckets[].count], .buckets[0].to_ms, .buckets[6].to_ms]' '[350,17550,[9,10,30,50,200,51,0],1000,null]' \
    "time to action: count, median (mean of the middle two), distribution"
is '.mau' '{"cap":1000,"months":[{"month":"2026-10","visitors":400,"percent_of_cap":40}]}' "monthly visitors against the default free cap"
is '.gpc' '{"sent":87,"not_sent":263,"not_recorded":400,"percent":24.9}' "GPC: sent, not sent, not recorded, share where recorded"
is '[.scripts[] | [.domain, .rule, .blocked, .seen_count]]' '[["cdn.tracker.example",null,false,3],["www.google-analytics.com","google-analytics.com",true,12]]' \
    "scripts seen in the period, each with the rule that covers it or null"

# The same figures when the store walks the index instead of the ids'
# span: the site's rows spread over four times as many ids.
strip='del(.generated_at)'
if store_is_postgres; then
	skip "the index walk gives the same figures as the walk over the ids: SQLite only (the SQLite store's choice of walk)"
else
	cp "$CONSENT_DB" "$T/spread.db"
	sqlite3 "$T/spread.db" "UPDATE consent_log SET id = -id; UPDATE consent_log SET id = -id * 4;"
	if cmp -s <(jq -S "$strip" "$T/report.json") <(ctl --db "$T/spread.db" report shop "${P[@]}" --json | jq -S "$strip"); then
		ok "the index walk gives the same figures as the walk over the ids"
	else
		notok "the index walk gives other figures: $(diff <(jq -S "$strip" "$T/report.json") <(ctl --db "$T/spread.db" report shop "${P[@]}" --json | jq -S "$strip") | head -5 | tr '\n' ' ')"
	fi
fi

# A visitor's last decision counts: v121 (opt-out) opts in later.
db "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, event_action, published_version, device_type)
    SELECT id, '2026-10-10T20:00:00.000Z', '$(printf '%064d' 121)', '{\"necessary\":true,\"functional\":true,\"analytics\":true,\"marketing\":true}', 'update', 'opt_in', 0, 'desktop' FROM sites WHERE site_key = 'shop'"
run report shop "${P[@]}" --json
is '[.totals.decisions, .totals.visitors, [.categories[] | .allowed]]' '[351,400,[350,231,231,211]]' "a later decision replaces the visitor's earlier one in the category shares"

# A paid site has no cap; CONSENT_MAU_CAP sets a free site's default.
CONSENT_MAU_CAP=800 ctl report shop "${P[@]}" --json > "$T/out"
is '.mau.cap, .mau.months[0].percent_of_cap' '800
50' "CONSENT_MAU_CAP is the cap of a free site without its own"
ctl site set shop --mau-cap 500 >/dev/null
run report shop "${P[@]}" --json
is '.mau.months[0].percent_of_cap' '80' "the site's own cap"
ctl site set shop --tier paid >/dev/null
run report shop "${P[@]}" --json
is '.mau' '{"cap":null,"months":[{"month":"2026-10","visitors":400,"percent_of_cap":null}]}' "a paid site: no cap"

# The default period is the last 30 days, today included; entries made by
# the consent endpoint count.
site recent
ORIGIN=https://example.com cgi POST consent "" '{"site_key":"recent","anon_id":"a1","categories":{"necessary":true,"analytics":true},"event_type":"initial","event_action":"opt_in","region":"gdpr","time_to_action_ms":1500}'
ORIGIN=https://example.com cgi POST consent "" '{"site_key":"recent","anon_id":"a2","categories":{"necessary":true,"analytics":false},"event_type":"initial","event_action":"opt_out","region":"gdpr","time_to_action_ms":2500}'
ORIGIN=https://example.com cgi POST consent "" '{"site_key":"recent","anon_id":"a3","categories":{},"event_type":"impression"}'
run report recent --json
today=$(date -u +%Y-%m-%d)
is '[.period.since, .period.until, .period.days, .totals.entries, .totals.impressions, .by_region[0].opt_in_percent, .time_to_action.median_ms, .gpc.not_sent, (.daily | length), .daily[29].decisions]' \
    "[\"$(date -u -d "$today -29 days" +%Y-%m-%d)\",\"$today\",30,3,1,50,2000,3,30,2]" "default period: the last 30 days, today included"
run report recent --since "$today" --json
is '[.period.days, .totals.entries]' '[1,3]' "--since alone ends today"

# --- the page --------------------------------------------------------------
# A consentctl built without the page (no node_modules: npm ci) says so; a
# user's checkout without them skips these checks, CI fails them.
page=1
if ! ctl report shop "${P[@]}" >/dev/null 2>"$T/perr" && grep -q 'built without the report template' "$T/perr"; then
	page=0
	if [ "${CI:-}" = true ]; then
		notok "consentctl was built without the report page under CI (npm ci, then make)"
	else
		skip "consentctl was built without the report page (npm ci, then make): the page's checks are not run"
	fi
fi
if [ "$page" = 1 ]; then
	run report shop "${P[@]}"
	check test "$rc" = 0 -a ! -s "$T/err" "report: exit 0, nothing on stderr"
	html=$T/out
	cp "$html" "$T/report.html"
	check test "$(grep -c '<script type="application/json" id="report-data">' "$html")" = 1 "one JSON data element"
	sed -n 's|.*<script type="application/json" id="report-data">\(.*\)</script>.*|\1|p' "$html" > "$T/embedded"
	if cmp -s <(jq -S "$strip" "$T/embedded") <(ctl report shop "${P[@]}" --json | jq -S "$strip"); then
		ok "the page holds the same JSON as --json"
	else
		notok "the page holds other JSON than --json"
	fi
	check test "$(grep -o '</script' "$html" | wc -l)" = 2 "only the page's two script elements end: the name's </script> is escaped"
	check grep -qF '\u003c/script\u003e\u003cb\u003eShop\u003c/b\u003e \u0026' "$html" "<, > and & of the data are \\u escapes"
	check sh -c "! grep -qF '</script><img' '$html'" "the recorded page URL's markup is not in the page as markup"
	check grep -qF '\u2028' "$html" "U+2028 of the data is a \\u escape"
	check sh -c "! grep -q \"\$(printf '\342\200\250')\" '$html'" "no raw U+2028 in the page"
	check grep -qF "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';" "$html" "the page forbids itself every request (CSP default-src 'none')"
	check sh -c "! grep -Eqi '<(script|link|img|iframe)[^>]* (src|href)=' '$html'" "the page loads no file: no src or href on a script, link, img or iframe"
fi

# --- errors --------------------------------------------------------------
snap
run report nope --json
fails 1 "unknown site: nope" "an unknown site: exit 1"
if [ "$page" = 1 ]; then
	run report shop --since 2025-01-01 --until 2025-01-31
	fails 1 "no consent entries for shop from 2025-01-01 to 2025-01-31 (UTC): nothing to report" "an empty period: exit 1, one line"
fi
run report shop --since 2025-01-01 --until 2025-01-31 --json
fails 1 "no consent entries for shop from 2025-01-01 to 2025-01-31 (UTC): nothing to report" "an empty period with --json: the same"
for d in 2026-02-30 2026-13-01 2026-00-10 2026-1-01 yesterday 1969-12-31 2026-10-01T00:00:00Z "" 20261001 2026-10-01x; do
	run report shop --since "$d" --json
	fails 2 "invalid --since '$d': a date YYYY-MM-DD (UTC) from 1970 on" "--since '$d' is refused: exit 2"
done
run report shop --until 2023-02-29 --json
fails 2 "invalid --until '2023-02-29': a date YYYY-MM-DD (UTC) from 1970 on" "--until 2023-02-29 (not a leap year) is refused"
run report shop --since 2024-02-29 --until 2024-03-01 --json
check test "$rc" = 1 "a leap day is a date (the period is only empty)"
run report shop --since 2026-10-10 --until 2026-10-01 --json
fails 2 "--since 2026-10-10 is after --until 2026-10-01" "--since after --until: exit 2"
run report shop --since 2000-01-01 --until 2026-01-01 --json
fails 2 "the period has 9498 days; a report covers at most 3660" "a period over ten years: exit 2"
run report 'bad key!' --json
fails 2 "invalid site key 'bad key!': 1-64 characters of A-Za-z0-9_-" "a malformed key: exit 2"
run report shop --format csv
fails 2 "report does not take --format" "report takes no --format"
run report
fails 2 "usage: consentctl report KEY [--since DATE] [--until DATE] [--json]   # > report.html" "report without a key: the usage line"
unchanged "report changes nothing in the database"

# --- the build -------------------------------------------------------------
# Without esbuild (or node_modules/uplot) make compiles an empty template
# (tools/embed.sh of /dev/null) and says so; consentctl report then fails
# with a message naming npm ci, and report --json still works.
check sh -c "cd '$TOP' && make -n B='$T/nobuild' ESBUILD=/nonexistent/esbuild '$T/nobuild/gen/report_data.c' | grep -q 'embed.sh report_template /dev/null'" \
    "make without esbuild embeds an empty report template"
[ "$page" = 0 ] ||
check sh -c "cd '$TOP' && make -n B='$T/nobuild' '$T/nobuild/gen/report_data.c' | grep -q 'embed.sh report_template build/report/report.html'" \
    "make with esbuild and node_modules embeds build/report/report.html"
