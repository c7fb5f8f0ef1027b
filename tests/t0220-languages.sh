#!/bin/bash
# t0220-languages.sh: the built-in texts through GET config: every language
# of common/config/i18n answers a complete banner in it, regional variants resolve
# as docs/sdk.md "Languages" says (CONTRACT 5.3), and resolvedDirection
# (an addition to spec 4.1) says which are written right to left.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site d1   # nothing published: the built-in defaults
get() { cgi "$@" GET config "site_key=${SITE:-d1}${Q:+&$Q}"; }
lang_is() { expect_json '[.resolvedLanguage, .resolvedDirection]' "$1" "$2"; }

# --- every built-in language, as the lang parameter ----------------------------
# The four written right to left; every other one left to right.
rtl=" ar fa he ur "
n=0
for f in "$TOP"/common/config/i18n/*.json; do
	code=$(basename "$f" .json)
	dir=ltr
	case $rtl in *" $code "*) dir=rtl ;; esac
	n=$((n + 1))
	# No country: the region default (opt_in), so no override applies.
	Q="lang=$code" get
	got=$(jq -n --slurpfile f "$f" --slurpfile en "$TOP/common/config/i18n/en.json" \
	    --slurpfile b "$T/body" --arg code "$code" --arg dir "$dir" '
	    $f[0] as $t | $b[0] as $b |
	    [ ($b.resolvedLanguage == $code), ($b.resolvedDirection == $dir),
	      ($b.resolvedContent == $t.banner),
	      ($b.resolvedUi == ($en[0].ui + $t.ui)),
	      ([$b.sdkCategories[] | {(.id): {name, description}}] | add) == $t.categories,
	      (($b.config.content.translations | keys) == (["en", $code] | unique)),
	      ($b.config.content.translations[$code] == $t) ] | all')
	check test "$got" = true "$code: a complete banner, its labels and categories in $code, $dir, config holding en and $code"
	size=$(wc -c < "$T/body")
	check test "$size" -le 20000 "$code: the body is $size bytes, under 20 KB (with 8 languages in one document it was 24.9 KB)"
	# The US: opt_out, the language's own wording of the US laws' choice.
	Q="lang=$code&region=us_state_laws" get
	got=$(jq -n --slurpfile f "$f" --slurpfile b "$T/body" '
	    $b[0].resolvedContent == ($f[0].banner + $f[0].modelOverrides.opt_out)')
	check test "$got" = true "$code: us_state_laws shows its opt_out wording"
done
check test "$n" -ge 53 "at least the 53 languages of issue 12 ($n)"
Q="lang=de&region=default" get
expect_json '.resolvedContent.acceptAllText' "$(jq '.banner.acceptAllText' "$TOP/common/config/i18n/de.json")" \
    "region default (opt_in): the banner's own acceptAllText"

# --- regional variants (docs/sdk.md "Languages") ------------------------------------
Q="lang=pt-BR" get;  lang_is '["pt-BR","ltr"]' "lang=pt-BR: Brazilian Portuguese"
Q="lang=pt-PT" get;  lang_is '["pt","ltr"]' "lang=pt-PT: European Portuguese (primary subtag)"
get HTTP_ACCEPT_LANGUAGE=pt-BR,pt\;q=0.9,en\;q=0.8
lang_is '["pt-BR","ltr"]' "a Brazilian browser (pt-BR, pt): pt-BR"
get HTTP_ACCEPT_LANGUAGE=pt-PT,pt\;q=0.9
lang_is '["pt","ltr"]' "a Portuguese browser (pt-PT, pt): pt"
get HTTP_CF_IPCOUNTRY=BR HTTP_ACCEPT_LANGUAGE=pt
lang_is '["pt","ltr"]' "Accept-Language pt in Brazil: pt (the browser's language, not the country)"
Q="lang=pt-AO" get;  lang_is '["pt","ltr"]' "pt-AO: European Portuguese"
Q="lang=zh-TW" get;  lang_is '["zh-TW","ltr"]' "zh-TW: Traditional"
Q="lang=zh-HK" get;  lang_is '["zh-TW","ltr"]' "zh-HK: Traditional (zh-TW)"
Q="lang=zh-MO" get;  lang_is '["zh-TW","ltr"]' "zh-MO: Traditional (zh-TW)"
Q="lang=zh-Hant" get; lang_is '["zh-TW","ltr"]' "zh-Hant: Traditional"
get HTTP_ACCEPT_LANGUAGE=zh-Hant-HK,zh\;q=0.9
lang_is '["zh-TW","ltr"]' "Accept-Language zh-Hant-HK, zh: Traditional"
Q="lang=zh" get;     lang_is '["zh-CN","ltr"]' "zh: Simplified"
Q="lang=zh-CN" get;  lang_is '["zh-CN","ltr"]' "zh-CN: Simplified"
Q="lang=zh-SG" get;  lang_is '["zh-CN","ltr"]' "zh-SG: Simplified"
Q="lang=zh-Hans" get; lang_is '["zh-CN","ltr"]' "zh-Hans: Simplified"
get HTTP_ACCEPT_LANGUAGE=zh-CN,zh\;q=0.9,en\;q=0.8
lang_is '["zh-CN","ltr"]' "a mainland browser: Simplified"
Q="lang=es-419" get; lang_is '["es-419","ltr"]' "es-419: Latin American Spanish"
Q="lang=es-MX" get;  lang_is '["es-419","ltr"]' "es-MX: Latin American Spanish"
Q="lang=es-AR" get;  lang_is '["es-419","ltr"]' "es-AR: Latin American Spanish"
Q="lang=es-US" get;  lang_is '["es-419","ltr"]' "es-US: Latin American Spanish"
Q="lang=es-ES" get;  lang_is '["es","ltr"]' "es-ES: Spain's Spanish"
get HTTP_ACCEPT_LANGUAGE=es-CO,es\;q=0.9
lang_is '["es-419","ltr"]' "a Colombian browser (es-CO, es): es-419 before es"
Q="lang=no" get;     lang_is '["nb","ltr"]' "no: Bokmal"
Q="lang=no-NO" get;  lang_is '["nb","ltr"]' "no-NO: Bokmal"
Q="lang=nb-NO" get;  lang_is '["nb","ltr"]' "nb-NO: Bokmal"
Q="lang=nn-NO" get;  lang_is '["nn","ltr"]' "nn-NO: Nynorsk"
Q="lang=iw" get;     lang_is '["he","rtl"]' "iw (withdrawn code): Hebrew"
Q="lang=sr-Latn" get; lang_is '["sr","ltr"]' "sr-Latn: the built-in Serbian"
Q="lang=de-AT" get;  lang_is '["de","ltr"]' "de-AT: de (primary subtag)"

# --- resolvedDirection ----------------------------------------------------------
Q="lang=ar-EG" get;  lang_is '["ar","rtl"]' "ar-EG: Arabic, rtl"
get HTTP_ACCEPT_LANGUAGE=fa-IR,fa\;q=0.9
lang_is '["fa","rtl"]' "Accept-Language fa-IR: Persian, rtl"
get HTTP_ACCEPT_LANGUAGE=ur-PK
lang_is '["ur","rtl"]' "Accept-Language ur-PK: Urdu, rtl"
Q="lang=he-IL" get;  lang_is '["he","rtl"]' "he-IL: Hebrew, rtl"
Q="lang=xx" get;     lang_is '["en","ltr"]' "an unknown language: en, ltr"

# --- region defaults -----------------------------------------------------------
get HTTP_CF_IPCOUNTRY=US
expect_json '[.resolvedRegion, .resolvedLanguage]' '["us_state_laws","en"]' "the US without Accept-Language: en (its defaultLanguage)"
get HTTP_CF_IPCOUNTRY=DE
expect_json '[.resolvedRegion, .resolvedLanguage]' '["gdpr","en"]' "gdpr without Accept-Language: en (no language dominates it)"
get HTTP_CF_IPCOUNTRY=SE HTTP_ACCEPT_LANGUAGE=sv-SE,sv\;q=0.9,en\;q=0.5
expect_json '[.resolvedRegion, .resolvedLanguage]' '["gdpr","sv"]' "a Swedish browser in Sweden: sv"

# --- a published document's UI labels over the built-in ones of its language ----
site p2
cat > "$T/doc2.json" <<'JSON'
{"content": {"defaultLanguage": "en", "translations": {
   "en": {"banner": {"title": "Cookies"}},
   "sv-SE": {"banner": {"title": "Kakor"}, "ui": {"required": "Alltid på"}},
   "zh-HK": {"banner": {"title": "Cookie 設定"}}}},
 "categories": [{"id": "necessary", "name": "Necessary", "consentModel": "exempt"}]}
JSON
ctl config publish p2 "$T/doc2.json" >/dev/null
for pass in prepared resolved; do
	SITE=p2 Q="lang=sv" get
	expect_json '.resolvedUi' "$(jq -c '.ui + {required: "Alltid på"}' "$TOP/common/config/i18n/sv.json")" \
	    "$pass: a published sv-SE without all its labels: the built-in Swedish ones under its own"
	SITE=p2 Q="lang=zh-HK" get
	expect_json '.resolvedUi' "$(jq -c '.ui' "$TOP/common/config/i18n/zh-TW.json")" \
	    "$pass: a published zh-HK without labels: the built-in Traditional Chinese ones"
	db "DELETE FROM config_answers"
done

# --- a published document: its keys, the same rules, prepared or not -----------
site p1
cat > "$T/doc.json" <<'JSON'
{"content": {"defaultLanguage": "en", "translations": {
   "en": {"banner": {"title": "Cookies"}},
   "zh-Hant": {"banner": {"title": "Cookie 設定"}},
   "zh-Hans": {"banner": {"title": "Cookie 设置"}},
   "ckb": {"banner": {"title": "کووکی"}},
   "ar-Latn": {"banner": {"title": "Cookies (ar-Latn)"}},
   "no": {"banner": {"title": "Informasjonskapsler"}}}},
 "categories": [{"id": "necessary", "name": "Necessary", "consentModel": "exempt"}],
 "regions": [{"id": "default", "countries": ["*"], "consentModel": "opt_in"}]}
JSON
ctl config publish p1 "$T/doc.json" >/dev/null
for pass in prepared resolved; do
	SITE=p1 Q="lang=zh-TW" get;  lang_is '["zh-Hant","ltr"]' "$pass: zh-TW finds zh-Hant"
	SITE=p1 Q="lang=zh-SG" get;  lang_is '["zh-Hans","ltr"]' "$pass: zh-SG finds zh-Hans"
	SITE=p1 Q="lang=nb" get;     lang_is '["no","ltr"]' "$pass: nb finds no"
	SITE=p1 Q="lang=ckb-IQ" get; lang_is '["ckb","rtl"]' "$pass: ckb (Sorani) is rtl"
	SITE=p1 Q="lang=ar-Latn" get; lang_is '["ar-Latn","ltr"]' "$pass: ar-Latn (a Latin script subtag) is ltr"
	db "DELETE FROM config_answers"
done
