/* scripts.c: the scripts endpoint's body and query, through the code
 * cgi-bin/scripts uses (CONTRACT 7): valid_parse_body, the site_key check,
 * scripts_req_check (declared fields, each entry, sync_id from the query or
 * the body, the tracker database) against the built-in config.
 *
 * Input: line 1 the query string, then the request body (NUL bytes kept).
 * Line 1 is also looked up as a domain in the tracker database
 * (tracker_match), as the report's domains are.
 */
#include <string.h>

#include "fuzz.h"
#include "endpoint/request.h"
#include "config/resolve.h"
#include "endpoint/scripts_req.h"
#include "input/tracker.h"
#include "input/valid.h"

static cJSON *doc;                 /* the built-in defaults */
static struct scripts_report rep;  /* as large as in cgi-bin/scripts: static */

/* tracker.h: a match names the domain itself or a parent, ending it at a
 * label (a trailing dot aside), and a category. */
static void
tracker(const char *domain)
{
	const char *entry = NULL, *cat;
	size_t dl, el;

	FUZZ_CHECK(tracker_count() > 0);
	if ((cat = tracker_match(domain, &entry)) == NULL) {
		FUZZ_CHECK(entry == NULL);
		return;
	}
	FUZZ_CHECK(cat[0] != '\0' && entry != NULL);
	FUZZ_CHECK(tracker_category(domain) == cat);
	dl = strlen(domain);
	if (dl > 0 && domain[dl - 1] == '.')
		dl--;
	el = strlen(entry);
	FUZZ_CHECK(el <= dl && memcmp(domain + dl - el, entry, el) == 0 &&
	    (el == dl || domain[dl - el - 1] == '.'));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;
	const cJSON *key;
	cJSON *body;
	char *buf, *err;
	enum scripts_req_err rc;

	if (doc == NULL && (doc = resolve_document(NULL)) == NULL)
		abort();
	fuzz_split(data, size, 1, &l);
	tracker(l.s[0]);
	buf = fuzz_body(l.rest, l.rest_len);
	if ((body = valid_parse_body(buf, l.rest_len)) == NULL)
		goto out;
	key = valid_get(body, "site_key");
	if (!cJSON_IsString(key) || !valid_site_key(key->valuestring))
		goto out;
	if ((err = malloc(256)) == NULL)
		abort();
	rc = scripts_req_check(body, l.s[0] ? l.s[0] : "", doc, &rep, err, 256);
	FUZZ_CHECK(rc == SCRIPTS_REQ_OK || rc == SCRIPTS_REQ_INVALID || rc == SCRIPTS_REQ_NOMEM);
	if (rc == SCRIPTS_REQ_INVALID)
		FUZZ_CHECK(strnlen(err, ERR_MSG_MAX) < ERR_MSG_MAX && err[0] != '\0');
	if (rc == SCRIPTS_REQ_OK) {
		FUZZ_CHECK(rep.n <= SCRIPTS_MAX && rep.page_url != NULL);
		FUZZ_CHECK(rep.sync_id[0] == '\0' || strlen(rep.sync_id) == 36);
		for (size_t i = 0; i < rep.n; i++) {
			FUZZ_CHECK(rep.e[i].domain == rep.domains[i]);
			for (size_t j = 0; j < i; j++)
				FUZZ_CHECK(strcmp(rep.domains[i], rep.domains[j]) != 0);
			for (const char *p = rep.domains[i]; *p != '\0'; p++)
				FUZZ_CHECK(!(*p >= 'A' && *p <= 'Z'));
		}
	}
	free(err);
	scripts_req_free(&rep);
out:
	cJSON_Delete(body);
	free(buf);
	fuzz_lines_free(&l);
	return 0;
}
