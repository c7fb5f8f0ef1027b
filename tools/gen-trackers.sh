#!/bin/sh
# gen-trackers.sh FILE: check the tracker list FILE (common/input/trackers.tsv) and
# print C source defining tracker_table[], its entries sorted by domain in
# byte order, for common/input/tracker.c to binary-search (struct in
# common/input/tracker_data.h).  Every malformed line is reported as FILE:LINE on
# stderr and the exit status is 1, with nothing printed on stdout.
set -eu
LC_ALL=C
export LC_ALL
file=$1

# Pass 1: validate every line; print nothing unless all are good.
awk -v file="$file" '
function fail(msg) {
	printf "%s:%d: %s\n", file, NR, msg | "cat 1>&2"
	bad = 1
}
BEGIN { FS = "\t" }
/^#/ || $0 == "" { next }
/\r$/ { fail("carriage return at the end of the line: save with LF line ends"); next }
{
	if (NF != 2) { fail("want domain<TAB>category, got " NF " field(s)"); next }
	d = $1; c = $2
	if (d !~ /^[a-z0-9-]+(\.[a-z0-9-]+)+$/ || length(d) > 253) {
		fail("bad domain \"" d "\": want lower-case labels of [a-z0-9-] joined by dots, at least two, no leading, trailing or double dot")
		next
	}
	if (c != "analytics" && c != "marketing" && c != "functional" && c != "necessary") {
		fail("bad category \"" c "\" for " d ": want analytics, marketing, functional or necessary")
		next
	}
	if (d in seen) { fail("duplicate domain " d " (first on line " seen[d] ")"); next }
	seen[d] = NR
	n++
}
END {
	if (!bad && n == 0) { printf "%s: no entries\n", file | "cat 1>&2"; bad = 1 }
	exit bad
}' "$file"

# Pass 2: sort in byte order (what strcmp() compares) and emit C.
awk 'BEGIN { FS = "\t" } /^#/ || $0 == "" { next } { print $1 "\t" $2 }' "$file" |
sort -t "$(printf '\t')" -k1,1 |
awk -v file="$file" '
BEGIN {
	FS = "\t"
	printf "/* generated from %s by tools/gen-trackers.sh: do not edit */\n", file
	print "#include <stddef.h>"
	print ""
	print "#include \"input/tracker_data.h\""
	print ""
	print "const struct tracker_entry tracker_table[] = {"
}
{ printf "\t{\"%s\", \"%s\"},\n", $1, $2 }
END {
	print "};"
	print ""
	print "const size_t tracker_table_len = sizeof(tracker_table) / sizeof(tracker_table[0]);"
}'
