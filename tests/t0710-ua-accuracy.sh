#!/bin/sh
# t0710-ua-accuracy.sh: ua_parse() (CONTRACT 7) scored on the labelled
# User-Agents of ../shared/data/ua by test_ua --accuracy: browser and OS at
# least 97% right, device type at least 95%.
. "$(dirname "$0")/setup.sh"

data=$SHARED/data/ua/ua_coarse.tsv
if [ ! -f "$data" ]; then
	skip "../shared/data/ua not present: UA accuracy not measured"
	exit 0
fi
ua=$BUILD/tests/unit/test_ua
if [ ! -x "$ua" ]; then
	notok "test_ua not built ($ua)"
	exit 1
fi

# Per-column accuracy lines, "#" lines for the mismatches, then one ok or
# not ok line per threshold.
_wrap "$ua" --accuracy "$data" --min-browser 97 --min-os 97 --min-device 95 \
    2> "$T/ua.err"
rc=$?
if [ "$rc" -ne 0 ]; then
	notok "test_ua --accuracy exited with status $rc: $(tail -n 5 "$T/ua.err" | tr '\n' ' ')"
fi
