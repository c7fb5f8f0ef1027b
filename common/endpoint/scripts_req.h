/* scripts_req.h: the scripts report (spec 4.3): declared, checked, folded per domain. */
#ifndef CONSENT_SCRIPTS_REQ_H
#define CONSENT_SCRIPTS_REQ_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "base/limits.h"
#include "store/store.h"

/* What scripts_req_check() found; the endpoint maps it to a status. */
enum scripts_req_err {
	SCRIPTS_REQ_OK = 0,
	SCRIPTS_REQ_INVALID,   /* the request breaks its declaration: 400, message in err */
	SCRIPTS_REQ_NOMEM      /* out of memory: 500 */
};

struct scripts_report {
	struct script_entry e[SCRIPTS_MAX];  /* one per distinct domain */
	char *domains[SCRIPTS_MAX];          /* owned lower-case copies */
	size_t n;
	const char *page_url;                /* points into the body */
	const char *error;                   /* NULL when the scan had none */
	char sync_id[37];                    /* lower-case UUID, "" when none */
};

/*
 * Check the body and every entry against their declarations, take the
 * sync_id from the query string (else the deprecated body field; either
 * must be a UUID: "Invalid sync_id format"), and fold the entries into one
 * record per lower-cased domain: a domain reported twice counts once, with
 * the last src and blocked.  The category is the built-in tracker
 * database's, else the client's guess when it names a category of doc,
 * else NULL (the record keeps its previous one), CONTRACT 7.
 * The report points into body; release it with scripts_req_free(), whatever
 * this returns.
 */
enum scripts_req_err scripts_req_check(const cJSON *body, const char *query, const cJSON *doc,
                                      struct scripts_report *r, char *err, size_t errsz);

void scripts_req_free(struct scripts_report *r);

#endif
