/* scripts_req.h: the scripts report (spec 4.3): declared, checked, folded per domain. */
#ifndef CONSENT_SCRIPTS_REQ_H
#define CONSENT_SCRIPTS_REQ_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "base/limits.h"
#include "store/store.h"

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
 * Returns 0; -1 with the 400 message in err; -2 when out of memory.  The
 * report points into body; release it with scripts_req_free().
 */
int scripts_req_check(const cJSON *body, const char *query, const cJSON *doc,
                      struct scripts_report *r, char *err, size_t errsz);

void scripts_req_free(struct scripts_report *r);

#endif
