/* admin.c: what cgi-bin/admin reads from a request (ADMIN.md 4, docs/admin-api.md
 * "Every request"): the path (api_path_split and the routes' patterns),
 * the session cookie (token_cookie_find), the CSRF header against a token
 * (token_equal), Sec-Fetch-Site, Origin and Host (api_same_origin), the
 * Content-Type (api_json_type), and the bodies of sign-in, setup,
 * re-authentication, password change and reset (valid_parse_body and
 * their declared fields), in the order api.c takes them.
 *
 * Input: lines PATH_INFO, Cookie, X-CSRF-Token, Origin, Host, HTTPS,
 * Sec-Fetch-Site, Content-Type ("~": absent), then the body, all of it.
 */
#include <strings.h>

#include "fuzz.h"
#include "admin/api_req.h"
#include "admin/token.h"
#include "input/valid.h"

/* The patterns of api.c's table, and some that only the matcher sees. */
static const char *const patterns[] = {
	"setup", "session", "session/reauth", "account/password", "account/sessions",
	"account/sessions/{id}", "account/reset", "users", "users/{name}", "audit",
	"sites", "sites/{key}", "sites/{key}/pause", "sites/{key}/domains",
	"sites/{key}/configs/{version}", "{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}",
};

/* What api_path_split promises of each segment. */
static void
check_segments(const char *const *seg, size_t n)
{
	FUZZ_CHECK(n >= 1 && n <= API_SEGS_MAX);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(seg[i]);

		FUZZ_CHECK(len >= 1 && len <= API_SEG_MAX);
		FUZZ_CHECK(strcmp(seg[i], ".") != 0 && strcmp(seg[i], "..") != 0);
		for (size_t j = 0; j < len; j++)
			FUZZ_CHECK(strchr("/ %?#\\", seg[i][j]) == NULL && seg[i][j] > 0x20 &&
			    seg[i][j] < 0x7f);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct api_fields *const bodies[] = {
		&api_setup_body, &api_signin_body, &api_reauth_body, &api_password_body,
		&api_reset_body,
	};
	struct fuzz_lines l;
	char *path = malloc(API_PATH_MAX + 1), *token = malloc(TOKEN_LEN + 1);
	char *own = malloc(ORIGIN_MAX + 1), *body, err[256];
	const char *seg[API_SEGS_MAX];
	size_t nseg, i;
	cJSON *json;

	if (path == NULL || token == NULL || own == NULL)
		abort();
	fuzz_split(data, size, 8, &l);

	if (api_path_split(l.s[0], path, seg, &nseg) == 0) {
		check_segments(seg, nseg);
		for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
			FUZZ_CHECK(api_path_match(seg, nseg, patterns[i]) <= 1);
	}

	switch (token_cookie_find(l.s[1], token)) {
	case TOKEN_COOKIE_FOUND:
		FUZZ_CHECK(strlen(token) == TOKEN_LEN);
		FUZZ_CHECK(strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789-_") == TOKEN_LEN);
		/* The CSRF header compared with a session's token. */
		FUZZ_CHECK(token_equal(l.s[2], token) == (l.s[2] != NULL && strcmp(l.s[2], token) == 0));
		break;
	case TOKEN_COOKIE_ABSENT:
	case TOKEN_COOKIE_MALFORMED:
		FUZZ_CHECK(token[0] == '\0');
		break;
	default:
		abort();
	}
	FUZZ_CHECK(token_equal(l.s[2], l.s[2]) == (l.s[2] != NULL));

	if (api_own_origin(l.s[4], l.s[5], "http", own) == 0) {
		FUZZ_CHECK(strncmp(own, "http", 4) == 0 && strlen(own) <= ORIGIN_MAX);
		/* A request from the dashboard's own origin passes. */
		FUZZ_CHECK(api_same_origin("same-origin", own, l.s[4], l.s[5], "http") == 1);
		FUZZ_CHECK(api_same_origin(NULL, own, l.s[4], l.s[5], "http") == 1);
	} else {
		FUZZ_CHECK(own[0] == '\0');
		FUZZ_CHECK(l.s[3] == NULL ||
		    api_same_origin(NULL, l.s[3], l.s[4], l.s[5], "http") == 0);
	}
	if (l.s[6] != NULL && strcmp(l.s[6], "same-origin") != 0)
		FUZZ_CHECK(api_same_origin(l.s[6], l.s[3], l.s[4], l.s[5], NULL) == 0);

	FUZZ_CHECK(api_json_type(l.s[7]) <= 1);
	if (api_json_type(l.s[7]))
		FUZZ_CHECK(strncasecmp(l.s[7], "application/json", 16) == 0);

	body = fuzz_body(l.rest, l.rest_len);
	if ((json = valid_parse_body(body, l.rest_len)) != NULL) {
		FUZZ_CHECK(cJSON_IsObject(json));
		for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
			int rc = valid_object(json, bodies[i]->f, bodies[i]->n, "", err, sizeof(err));

			FUZZ_CHECK(rc == 0 || rc == -1);
			if (rc == -1)
				FUZZ_CHECK(err[0] != '\0' && strnlen(err, sizeof(err)) < sizeof(err));
		}
		cJSON_Delete(json);
	}
	free(body);
	free(path);
	free(token);
	free(own);
	fuzz_lines_free(&l);
	return 0;
}
