/* api_sites.h: what the dashboard's config routes share with its site routes (api_sites.c). */
#ifndef CONSENT_API_SITES_H
#define CONSENT_API_SITES_H

#include "admin/api.h"

/*
 * The site key of the request's path (sites/{key}/...) when the account
 * has at least role need on it: else the answer is sent (404 {"error":
 * "Site not found"} for a key that is none, or api_need()'s) and NULL
 * returned.  The key points into a.
 */
const char *api_site_key(struct api *a, enum api_role need);

/* Answer a store code that is not STORE_OK: STORE_NOTFOUND is 404
 * {"error":"Site not found"}, anything else 500.  Returns -1. */
int api_site_failed(struct api *a, int rc);

#endif
