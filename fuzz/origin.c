/* origin.c: the Origin header and the domains it is matched to (CONTRACT 3
 * and 7): origin_host, origin_normalise_domain, origin_matches, and the
 * CORS echo resp_init makes of it (no request byte may reach a header
 * unvalidated).
 *
 * Input: line 1 the Origin header ("~": absent), line 2 a domain as an
 * operator types it to `consentctl domain add`.  Line 2 is also a script's
 * host as a scripts report gives it (origin_script_host).
 */
#include "fuzz.h"
#include "http/http.h"
#include "base/limits.h"
#include "input/origin.h"
#include "http/resp.h"

/* What origin_host and origin_normalise_domain may write: printable ASCII
 * without upper case, at most HOST_MAX characters. */
static void
check_host(const char *h)
{
	size_t n = strnlen(h, HOST_MAX + 1);

	FUZZ_CHECK(n >= 1 && n <= HOST_MAX);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)h[i];
		FUZZ_CHECK(c > 0x20 && c < 0x7f && !(c >= 'A' && c <= 'Z'));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;
	struct http_req req;
	struct resp resp;
	char *host = malloc(HOST_MAX + 1), *dom = malloc(HOST_MAX + 1);
	char *again = malloc(HOST_MAX + 1);
	int hrc, drc;

	if (host == NULL || dom == NULL || again == NULL)
		abort();
	fuzz_split(data, size, 2, &l);

	hrc = origin_host(l.s[0], host);
	FUZZ_CHECK(hrc == 0 || hrc == -1);
	if (hrc == 0) {
		check_host(host);
		FUZZ_CHECK(origin_matches(host, host) == 1);
	} else {
		FUZZ_CHECK(host[0] == '\0');
	}

	/* a script's host: lower case, no port, no trailing dot; stable */
	if (origin_script_host(l.s[1], dom) == 0) {
		check_host(dom);
		FUZZ_CHECK(origin_script_host(dom, again) == 0 && strcmp(dom, again) == 0);
	} else {
		FUZZ_CHECK(dom[0] == '\0');
	}

	drc = origin_normalise_domain(l.s[1], dom);
	FUZZ_CHECK(drc == 0 || drc == -1);
	if (drc == 0) {
		check_host(dom);
		/* normalising a normalised domain changes nothing */
		FUZZ_CHECK(origin_normalise_domain(dom, again) == 0 && strcmp(dom, again) == 0);
	} else {
		FUZZ_CHECK(dom[0] == '\0');
	}
	if (hrc == 0 && drc == 0)
		(void)origin_matches(host, dom);
	if (l.s[1] != NULL)
		(void)origin_matches(hrc == 0 ? host : "example.com", l.s[1]);

	/* The CORS echo: the Origin itself when origin_host accepts it, else "*". */
	memset(&req, 0, sizeof(req));
	req.method = HTTP_POST;
	req.query = "";
	req.origin = l.s[0];
	resp_init(&resp, &req, "POST, OPTIONS");
	if (strcmp(resp.allow_origin, "*") != 0) {
		FUZZ_CHECK(hrc == 0 && strcmp(resp.allow_origin, l.s[0]) == 0);
		for (const char *p = resp.allow_origin; *p != '\0'; p++)
			FUZZ_CHECK((unsigned char)*p > 0x20 && (unsigned char)*p < 0x7f);
	}

	free(host);
	free(dom);
	free(again);
	fuzz_lines_free(&l);
	return 0;
}
