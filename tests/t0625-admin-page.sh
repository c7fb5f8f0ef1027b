#!/bin/bash
# t0625-admin-page.sh: the dashboard's page as built (ADMIN.md 1): every
# file of build/admin/ made by make, at most 60 KB gzip in all, no inline
# script or style in its HTML, nothing in its sources that makes markup of
# a text (innerHTML and its kin) or code of a string (eval and its kin),
# and the npm packages it bundles pinned to one version in package.json and
# package-lock.json; then the unit tests of its pure modules
# (tests/admin/unit/*.test.mjs, node:test).  Without esbuild or node_modules (npm ci) one skip
# line, a failure when CI=true.
. "$(dirname "$0")/setup.sh"
plain_pass_only
A=$TOP/build/admin
FILES="index.html admin.js admin.css uplot.js preview.html preview.js preview.css"
if [ ! -f "$A/admin.js" ]; then
	if [ "${CI:-}" = true ]; then
		notok "build/admin/ is not built (esbuild, npm ci; make): required when CI=true"
		exit 1
	fi
	skip "build/admin/ is not built (esbuild, npm ci; make): not run"
	exit 0
fi

for f in $FILES; do
	check test -s "$A/$f" "build/admin/$f is built"
done

# ADMIN.md 1: at most 60 KB gzip in all (each file compressed alone, as a
# server sends it).
total=0
for f in $FILES; do
	n=$(gzip -9 -c "$A/$f" | wc -c)
	total=$((total + n))
done
if [ "$total" -gt 1000 ] && [ "$total" -le 61440 ]; then
	ok "the page is $total bytes gzip -9 in all, at most 61440"
else
	notok "the page is $total bytes gzip -9 in all: budget 61440 (and more than 1000)"
fi
js=$(gzip -9 -c "$A/admin.js" | wc -c)
[ "$js" -le 51200 ] && ok "admin.js is $js bytes gzip -9 (at most 50 KiB)" ||
	notok "admin.js is $js bytes gzip -9: more than 50 KiB"

# A strict CSP holds: scripts and styles are files; no inline handler.
for f in index.html preview.html; do
	if grep -Eiq '<script([^>]*[^>]*)?>[^<]|<script(>| [^s>]*>)|<style|style=|[[:space:]]on[a-z]+=' "$A/$f"; then
		notok "build/admin/$f has inline script, style or a handler: $(grep -Ein '<script[^>]*>[^<]|<style|style=|[[:space:]]on[a-z]+=' "$A/$f" | head -n 2 | tr '\n' ' ')"
	else
		ok "build/admin/$f has no inline script, style or handler"
	fi
	check grep -q '<script src="[a-z]*\.js" defer></script>' "$A/$f" "build/admin/$f loads its one script from a file"
done

# Text never becomes markup, a string never code (ADMIN.md 4, STYLE.md).
bad=$(grep -EnH 'innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write|\beval\(|new Function|setTimeout\(['"'"'"`]' \
	"$TOP"/admin/src/*.js 2>/dev/null)
[ -z "$bad" ] && ok "admin/src: no innerHTML, dangerouslySetInnerHTML, document.write, eval or new Function" ||
	notok "admin/src makes markup or code of a string: $(echo "$bad" | head -n 3 | tr '\n' ' ')"
bad=$(grep -Eo '\beval\(|new Function\(' "$A/admin.js" "$A/uplot.js" "$A/preview.js")
[ -z "$bad" ] && ok "the built scripts hold no eval or new Function" ||
	notok "the built scripts hold $(echo "$bad" | sort -u | tr '\n' ' ')"

# The bundled packages: pinned exactly, the same in the lockfile.
for p in preact htm qrcode-generator diff uplot; do
	want=$(jq -r --arg p "$p" '.devDependencies[$p] // empty' "$TOP/package.json")
	got=$(jq -r --arg p "node_modules/$p" '.packages[$p].version // empty' "$TOP/package-lock.json")
	case $want in
	[0-9]*.[0-9]*.[0-9]*) [ "$want" = "$got" ] && ok "$p $want pinned in package.json and package-lock.json" ||
		notok "$p: package.json $want, package-lock.json '$got'" ;;
	*) notok "$p is not pinned to one version in package.json: '$want'" ;;
	esac
done

# The page's pure modules (admin/src/doc.js), under node:test.
if command -v node >/dev/null 2>&1; then
	. "$TOP/tests/node-tap.sh"
	cd "$TOP" && node_tap tests/admin/unit/*.test.mjs
else
	skip "node is not installed: tests/admin/unit not run"
fi
