/* config.c: config resolution (CONTRACT 5) over a fuzzed document and
 * visitor, the way cgi-bin/config builds the visitor: region and lang from
 * the query string, Accept-Language, and geo_detect's country when no region
 * is asked for.  The document goes through publish_check (what publishing
 * checks: configdoc_validate, and the path of the member its message
 * names, which the dashboard's editor shows) and then, valid or not,
 * resolve_config (which promises to check every lookup again) and the
 * printing resp_json does.
 *
 * Input: line 1 the query string, line 2 Accept-Language, line 3
 * HTTP_CF_IPCOUNTRY, line 4 HTTP_CF_REGION_CODE ("~": absent), then the
 * published document's JSON text.  A query parameter fuzz_oom=N (none the
 * endpoint knows) makes cJSON's N-th allocation on fail while the document
 * is checked and resolved: nothing is checked then but the sanitizers.
 */
#include <string.h>

#include "admin/publish.h"
#include "fuzz.h"
#include "visitor.h"
#include "input/geo.h"
#include "http/http.h"
#include "base/limits.h"
#include "config/resolve.h"

static void
env(const char *name, const char *value)
{
	if (value != NULL)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;
	struct visitor v;
	struct site_facts site = { "Fuzz site", 1, 3, 0 };
	char region[TOKEN_MAX + 1], lang[LANG_TAG_MAX + 1], oom[16];
	struct publish_check why;
	const char *q;
	char *text, *out;
	cJSON *doc, *res;
	int valid;

	fuzz_split(data, size, 4, &l);
	q = l.s[0] ? l.s[0] : "";
	fuzz_visitor_query(q, &v, region, lang);
	v.accept = l.s[1];
	if (v.region == NULL) {
		unsetenv("CONSENT_COUNTRY_HEADER");
		unsetenv("CONSENT_GEOIP_DB");
		env("HTTP_CF_IPCOUNTRY", l.s[2]);
		env("HTTP_CF_REGION_CODE", l.s[3]);
		geo_detect(&v.geo);
	}

	text = fuzz_body(l.rest, l.rest_len);
	/* What does not parse is logged by resolve_document on every run: look
	 * first, so that stderr keeps only what matters. */
	doc = cJSON_Parse(text);
	valid = cJSON_IsObject(doc);
	cJSON_Delete(doc);
	if (valid && http_query_param(q, "fuzz_oom", oom, sizeof(oom)) == HTTP_PARAM_FOUND &&
	    (doc = resolve_document(text)) != NULL) {
		fuzz_cjson_fail_from(strtoul(oom, NULL, 10) % 10000000 + 1);
		(void)publish_check(doc, &why);
		cJSON_Delete(resolve_config(doc, &v, &site));
		fuzz_cjson_fail_from(0);
		cJSON_Delete(doc);
	} else if (valid && (doc = resolve_document(text)) != NULL) {
		valid = publish_check(doc, &why);
		FUZZ_CHECK(valid == 0 || valid == -1);
		FUZZ_CHECK(strnlen(why.message, sizeof(why.message)) < sizeof(why.message));
		FUZZ_CHECK((valid == 0) == (why.message[0] == '\0'));
		/* A path is the message's first word, never more. */
		FUZZ_CHECK(strnlen(why.path, sizeof(why.path)) < sizeof(why.path));
		FUZZ_CHECK(why.path[0] == '\0' ||
		    (strncmp(why.message, why.path, strlen(why.path)) == 0 &&
		    strchr(" :", why.message[strlen(why.path)]) != NULL));
		(void)resolve_region(doc, &v);
		(void)resolve_has_category(doc, "analytics");
		if ((res = resolve_config(doc, &v, &site)) == NULL)
			abort();
		if ((out = cJSON_PrintUnformatted(res)) == NULL)
			abort();
		cJSON_free(out);
		cJSON_Delete(res);
		cJSON_Delete(doc);
	}
	free(text);
	fuzz_lines_free(&l);
	return 0;
}
