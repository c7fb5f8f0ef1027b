#!/bin/sh
# report-page.sh TEMPLATE CSS JS: print the report page: TEMPLATE with its
# line "@REPORT_CSS@" replaced by the stylesheet CSS and its line
# "@REPORT_JS@" by the script JS (both built by esbuild), so that the page
# is one file that loads nothing.  Refuses a stylesheet holding "</style"
# or a script holding "</script", which would end the element early.
set -eu
tmpl=$1 css=$2 js=$3
if grep -qi '</style' "$css"; then echo "report-page.sh: $css holds </style" >&2; exit 1; fi
if grep -qi '</script' "$js"; then echo "report-page.sh: $js holds </script" >&2; exit 1; fi
if grep -q '@REPORT_JSON@' "$css" "$js"; then echo "report-page.sh: the marker @REPORT_JSON@ is in $css or $js" >&2; exit 1; fi
for m in @REPORT_CSS@ @REPORT_JS@ @REPORT_JSON@; do
	[ "$(grep -c "$m" "$tmpl")" = 1 ] || { echo "report-page.sh: $tmpl must hold $m once" >&2; exit 1; }
done
awk -v css="$css" -v js="$js" '
	$0 == "@REPORT_CSS@" { while ((getline l < css) > 0) print l; next }
	$0 == "@REPORT_JS@" { while ((getline l < js) > 0) print l; next }
	{ print }' "$tmpl"
