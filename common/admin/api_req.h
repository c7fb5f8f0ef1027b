/* api_req.h: what the dashboard reads from a request, as functions of their text alone (api.c uses them; fuzz/admin.c drives them). */
#ifndef CONSENT_API_REQ_H
#define CONSENT_API_REQ_H

#include <stddef.h>

#include "base/limits.h"
#include "input/valid.h"

#define API_SEGS_MAX 8          /* path segments after /admin/api/ */
#define API_PATH_MAX 512        /* PATH_INFO longer than this: 404 */
#define API_SEG_MAX 255         /* bytes of one path segment */

/*
 * PATH_INFO ("/sites/abc/configs") into buf and seg[]: it must start with
 * '/', hold at most API_SEGS_MAX segments of at most API_PATH_MAX bytes
 * in all, each 1-API_SEG_MAX bytes of [A-Za-z0-9._~@*:-] and not "." or
 * "..", with no empty one (no "//", no trailing '/').  seg[] points into
 * buf.  0, or -1 (no route: 404; *nseg and buf then mean nothing).
 */
int api_path_split(const char *path_info, char buf[API_PATH_MAX + 1],
                   const char *seg[API_SEGS_MAX], size_t *nseg);

/* Whether the nseg segments match pattern ("sites/{key}/configs": a
 * "{...}" segment matches any one): 1 or 0. */
int api_path_match(const char *const *seg, size_t nseg, const char *pattern);

/*
 * The dashboard's own origin from the server's variables: "https://" +
 * host, or "http://" when the server says the request is not HTTPS
 * (https "off", or no https and scheme "http"); host (HTTP_HOST) must be a
 * host with an optional port (origin_host()).  0, or -1 (out empty).
 */
int api_own_origin(const char *host, const char *https, const char *scheme,
                   char out[ORIGIN_MAX + 1]);

/* ADMIN.md 4: Sec-Fetch-Site, when sent, is "same-origin", and Origin,
 * when sent, the dashboard's own (api_own_origin; ASCII case ignored).
 * 1 when the request may go on, 0 when it is refused. */
int api_same_origin(const char *sec_fetch_site, const char *origin, const char *host,
                    const char *https, const char *scheme);

/* Whether a Content-Type is application/json, with nothing after it but
 * parameters ("; charset=utf-8"): 1 or 0. */
int api_json_type(const char *content_type);

/*
 * The bodies that carry credentials, declared once (valid_object()): the
 * password fields are bounded by the body's size here, and in bytes
 * (API_PASSWORD_BYTES_MAX) or by the policy where they are used, so that
 * a long one is a wrong credential rather than a 400.
 */
struct api_fields {
	const struct vfield *f;
	size_t n;
};
extern const struct api_fields api_setup_body, api_signin_body, api_reauth_body,
    api_password_body, api_reset_body;

#endif
