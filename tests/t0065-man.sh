#!/bin/bash
# t0065-man.sh: the manual pages (man/) are clean mdoc, and consentctl(8)
# names exactly the commands and options consentctl has: its usage
# (`consentctl --help`, printed from its command table) is the list, so a
# command or option added, renamed or removed on one side only fails here.
. "$(dirname "$0")/setup.sh"

MAN=$TOP/man
PAGES="consentctl.8 consent.8 consent-log.5"

for p in $PAGES; do
	check test -f "$MAN/$p" "man/$p exists"
done

# mandoc -Tlint -Wwarning: silent and 0 for a clean page.
if ! command -v mandoc >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		notok "mandoc is not installed (sh tools/deps.sh): required when CI=true"
	else
		skip "mandoc is not installed (sh tools/deps.sh): the man pages are not linted"
	fi
else
	for p in $PAGES; do
		[ -f "$MAN/$p" ] || continue
		if mandoc -Tlint -Wwarning "$MAN/$p" > "$T/lint" 2>&1; then
			check test ! -s "$T/lint" "man/$p: mandoc -Tlint -Wwarning says nothing"
		else
			notok "man/$p: mandoc -Tlint -Wwarning: $(head -3 "$T/lint" | tr '\n' ' ')"
		fi
	done
fi

# consentctl(8) against consentctl, from the page's mdoc source: a command
# is an item ".It Cm WORDS ..." of its Commands list, an option "Fl -NAME"
# (which renders --NAME); consentctl's, from its usage, one
# "  consentctl WORDS ..." line per command of its table.  Without mandoc
# these checks still run.
"$BUILD/bin/consentctl" --help > "$T/usage" 2>&1
check test -s "$T/usage" "consentctl --help prints the usage"

# A command is its leading lower-case words: "consent export", "purge".
commands() {
	sed -n 's/^  consentctl //p' "$1" | awk '{
		w = $1
		if ($2 ~ /^[a-z][a-z0-9-]*$/) w = w " " $2
		print w
	}' | sort -u
}
commands "$T/usage" > "$T/have"
check test "$(wc -l < "$T/have")" -ge 20 "the usage lists the commands ($(wc -l < "$T/have"))"

# The page's commands: the items of its Commands list, ".It Cm WORDS ...".
cmd_items() { # the ".It Cm" lines of the Commands list of consentctl.8
	awk '/^\.Ss Commands/ { on = 1; next } /^\.S[hs] / { on = 0 } on && /^\.It Cm / { print }' \
	    "$MAN/consentctl.8"
}
cmd_items | awk '{
	w = $3
	if ($4 ~ /^[a-z][a-z0-9-]*$/) w = w " " $4
	print w
}' | sort -u > "$T/named"
missing=$(comm -23 "$T/have" "$T/named" | paste -sd, -)
check test -z "$missing" "consentctl(8) has an entry for every command${missing:+ (none for: $missing)}"
extra=$(comm -13 "$T/have" "$T/named" | paste -sd, -)
check test -z "$extra" "consentctl(8) names no command consentctl lacks${extra:+ (it names: $extra)}"

# Every option: those of the usage, and --help, which prints it.
grep -o -- '--[a-z][a-z-]*' "$T/usage" | sort -u > "$T/opts"
echo --help >> "$T/opts"
sort -u -o "$T/opts" "$T/opts"
check test "$(wc -l < "$T/opts")" -ge 15 "the usage names the options ($(wc -l < "$T/opts"))"
grep -o -- 'Fl -[a-z][a-z-]*' "$MAN/consentctl.8" | sed 's/^Fl -/--/' | sort -u > "$T/page-opts"
missing=$(comm -23 "$T/opts" "$T/page-opts" | paste -sd, -)
check test -z "$missing" "consentctl(8) describes every option${missing:+ (not: $missing)}"
extra=$(comm -13 "$T/opts" "$T/page-opts" | paste -sd, -)
check test -z "$extra" "consentctl(8) names no option consentctl lacks${extra:+ (it names: $extra)}"

# Each command's entry shows the options its usage line gives it, and
# no other.
bad=
while IFS= read -r line; do
	cmd=$(printf '%s\n' "$line" | awk '{ w = $1; if ($2 ~ /^[a-z][a-z0-9-]*$/) w = w " " $2; print w }')
	want=$(printf '%s\n' "$line" | grep -o -- '--[a-z][a-z-]*' | sort -u | paste -sd' ' -)
	item=$(cmd_items | awk -v c=".It Cm $cmd" 'index($0, c " ") == 1 || $0 == c')
	got=$(printf '%s\n' "$item" | grep -o -- 'Fl -[a-z][a-z-]*' | sed 's/^Fl -/--/' | sort -u | paste -sd' ' -)
	[ "$want" = "$got" ] || bad="$bad; $cmd: usage [$want], page [$got]"
done < <(sed -n 's/^  consentctl //p' "$T/usage")
check test -z "$bad" "each command's entry in consentctl(8) has the options of its usage${bad:+ (not so${bad})}"
