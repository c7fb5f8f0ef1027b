/* resolve.h: a published config resolved for one visitor (CONTRACT 5). */
#ifndef CONSENT_RESOLVE_H
#define CONSENT_RESOLVE_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "geo.h"

struct visitor {
	const char *region;     /* the region query parameter, or NULL */
	const char *lang;       /* the lang query parameter, or NULL */
	const char *accept;     /* Accept-Language, or NULL */
	struct geo geo;         /* country and subdivision, "" when unknown */
};

struct site_facts {
	const char *name;
	int free_tier;
	int64_t version;        /* 0: unpublished */
	int doc_is_builtin;     /* doc is defaults_config(): not parsed twice */
};

/*
 * The config endpoint's 200 body (spec 4.1) for doc, the published document
 * or the built-in defaults, which the result references (the caller keeps
 * doc alive until the result is deleted, then deletes both).  Returns a new
 * object or NULL when out of memory.  doc was validated at publish time, but
 * every lookup here is checked again: a missing or mistyped member is
 * skipped, never dereferenced.
 */
cJSON *resolve_config(const cJSON *doc, const struct visitor *v,
                      const struct site_facts *site);

/* The region CONTRACT 5.1 picks, or NULL: exported for tests and consent. */
const cJSON *resolve_region(const cJSON *doc, const struct visitor *v);

/*
 * The document a site serves: the published JSON text parsed, or the
 * built-in defaults when published is NULL.  New tree (caller owns), or NULL
 * when it does not parse (reported on stderr) or memory runs out.
 */
cJSON *resolve_document(const char *published);

/* Whether the document declares a category with this id: 1 or 0. */
int resolve_has_category(const cJSON *doc, const char *id);

#endif
