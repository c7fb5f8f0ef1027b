/* api_req.c: the request's path, origin, content type and credential bodies, checked from their text alone. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "admin/api_req.h"
#include "base/nitems.h"
#include "input/origin.h"

/* A JSON body is at most this many bytes (api.h's API_BODY_MAX): a string
 * field bounded by it is bounded by the body. */
#define FIELD_ANY 65536

static const struct vfield setup_fields[] = {
	{ "token", V_STRING, 1, 1, 128, 0, 0, NULL },
	{ "username", V_STRING, 1, 1, 64, 0, 0, NULL },
	{ "password", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
};
static const struct vfield signin_fields[] = {
	{ "username", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
	{ "password", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
	{ "totp", V_STRING, 0, 0, 64, 0, 0, NULL },
};
static const struct vfield reauth_fields[] = {
	{ "password", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
	{ "totp", V_STRING, 0, 0, 64, 0, 0, NULL },
};
static const struct vfield password_fields[] = {
	{ "password", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
	{ "new", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
};
static const struct vfield reset_fields[] = {
	{ "username", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
	{ "code", V_STRING, 1, 0, 128, 0, 0, NULL },
	{ "new", V_STRING, 1, 0, FIELD_ANY, 0, 0, NULL },
};

const struct api_fields api_setup_body = { setup_fields, nitems(setup_fields) };
const struct api_fields api_signin_body = { signin_fields, nitems(signin_fields) };
const struct api_fields api_reauth_body = { reauth_fields, nitems(reauth_fields) };
const struct api_fields api_password_body = { password_fields, nitems(password_fields) };
const struct api_fields api_reset_body = { reset_fields, nitems(reset_fields) };

/* A path segment: 1-API_SEG_MAX bytes of [A-Za-z0-9._~@*:-], not "." or "..". */
static int
seg_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > API_SEG_MAX || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._~@*:-") == n;
}

int
api_path_split(const char *p, char buf[API_PATH_MAX + 1], const char *seg[API_SEGS_MAX],
               size_t *nseg)
{
	char *s, *slash;

	*nseg = 0;
	if (p == NULL || p[0] != '/' || p[1] == '\0' || strnlen(p + 1, API_PATH_MAX + 1) >
	    API_PATH_MAX)
		return -1;
	memcpy(buf, p + 1, strlen(p + 1) + 1);
	for (s = buf;; s = slash + 1) {
		if (*nseg == API_SEGS_MAX)
			return -1;
		seg[(*nseg)++] = s;
		if ((slash = strchr(s, '/')) != NULL)
			*slash = '\0';
		if (!seg_ok(s))
			return -1;
		if (slash == NULL)
			return 0;
	}
}

int
api_path_match(const char *const *seg, size_t nseg, const char *pattern)
{
	const char *p = pattern;
	size_t i;

	for (i = 0; i < nseg; i++) {
		size_t len = strcspn(p, "/");

		if (len == 0)
			return 0;
		if (p[0] != '{' && (strlen(seg[i]) != len || memcmp(seg[i], p, len) != 0))
			return 0;
		p += len;
		if (*p == '/')
			p++;
		else if (i + 1 < nseg)
			return 0;
	}
	return *p == '\0';
}

int
api_own_origin(const char *host, const char *https, const char *scheme,
               char out[ORIGIN_MAX + 1])
{
	char h[HOST_MAX + 1];
	int plain, n;

	out[0] = '\0';
	if (host == NULL || strnlen(host, ORIGIN_MAX + 1) > ORIGIN_MAX)
		return -1;
	plain = (https != NULL && strcasecmp(https, "off") == 0) ||
	    ((https == NULL || *https == '\0') && scheme != NULL && strcmp(scheme, "http") == 0);
	n = snprintf(out, ORIGIN_MAX + 1, "%s://%s", plain ? "http" : "https", host);
	if (n < 0 || n > ORIGIN_MAX || origin_host(out, h) != 0) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

int
api_same_origin(const char *sec_fetch_site, const char *origin, const char *host,
                const char *https, const char *scheme)
{
	char own[ORIGIN_MAX + 1];

	if (sec_fetch_site != NULL && strcmp(sec_fetch_site, "same-origin") != 0)
		return 0;
	if (origin == NULL)
		return 1;
	return api_own_origin(host, https, scheme, own) == 0 && strcasecmp(origin, own) == 0;
}

int
api_json_type(const char *ct)
{
	size_t n = strlen("application/json");

	if (ct == NULL || strncasecmp(ct, "application/json", n) != 0)
		return 0;
	ct += n;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	return *ct == '\0' || *ct == ';';
}
