/* request.h: the checks every endpoint makes, in CONTRACT 7 order. */
#ifndef CONSENT_REQUEST_H
#define CONSENT_REQUEST_H

#include <cjson/cJSON.h>

#include "http/http.h"
#include "http/resp.h"
#include "store/store.h"

/*
 * These are the endpoints' shared edge: each step either passes (returns 0)
 * or has already sent the one answer CONTRACT 7 names for its failure and
 * returns -1, so main() reads as a list of steps.
 */

/*
 * Method check: OPTIONS answers 204 (the CORS preflight); a method not in
 * the endpoint's list answers 405 "Method not allowed" with Allow.  allow_get
 * admits GET and HEAD, allow_post admits POST.
 */
int request_method(const struct http_req *req, struct resp *resp,
                   int allow_get, int allow_post);

/*
 * Read and parse the JSON body: 413 "Payload too large" (unread), 400
 * "Invalid Content-Length", 400 "Request body is incomplete", 400 "Invalid
 * JSON body" (also for a JSON value that is not an object), 500.  On success
 * *out is the object (caller owns).
 */
int request_body(struct http_req *req, struct resp *resp, cJSON **out);

/*
 * site_key of a JSON body: present (400 "site_key is required"), a string,
 * well-formed.  On success *key points into body.
 */
int request_body_key(const cJSON *body, struct resp *resp, const char **key);

/*
 * Open the database, find the site (404 "Site not found"), check the
 * Origin (403 "Missing Origin header", 403 "Origin not registered for this
 * site") and, when check_paused, the pause (403 "Site is paused").  On
 * success *st and *site are the caller's to release (request_release());
 * on failure nothing is left to release.  The store is the process's
 * (store_acquire()): opened once when it serves many requests.
 */
int request_site(const struct http_req *req, struct resp *resp, const char *key,
                 enum store_mode mode, int check_paused,
                 struct store **st, struct site *site);

/*
 * The end of a request's use of the store: the site cleared, the store
 * handed back (store_release()), closed when the answer was a 500 so that
 * a broken handle never serves the next request.
 */
void request_release(const struct resp *resp, struct store *st, struct site *site);

/*
 * A fresh 500 "Internal server error" to the POST being served, made from
 * its variables alone (its body was read before): the writers' answer
 * (serve_requests' fail) for a write whose group commit failed, in place
 * of the answer held for it.  Allow, should it be needed, is the writers'
 * "POST, OPTIONS".
 */
void request_write_failed(void);

#endif
