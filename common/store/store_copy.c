/* store_copy.c: what both backends' sides of a copy share: the parts' names, finding one, the empty target. */
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/store_ops.h"

#define COPY_TABLE(t, n, cols, identity, fractions) #t,
#define COPY_CONFIG_ID(name, n) name,
#define COPY_COUNTS(t, n, cols) #t,
const char *const store_copy_names[] = {
#include "store/store_copy_parts.h"
};
#undef COPY_TABLE
#undef COPY_CONFIG_ID
#undef COPY_COUNTS
const size_t store_copy_nparts = nitems(store_copy_names);

int
store_copy_part(const char *name, const char *backend)
{
	for (size_t i = 0; i < store_copy_nparts; i++)
		if (strcmp(store_copy_names[i], name) == 0)
			return (int)i;
	log_error("copy: the %s store has no part %s", backend, name);
	return -1;
}

int
store_copy_empty(struct store *st, const char *what,
                 int (*count)(struct store *st, const char *part, int64_t *n))
{
	int64_t n;

	for (size_t i = 0; i < store_copy_nparts; i++) {
		if (strcmp(store_copy_names[i], "builtin_texts") == 0)
			continue;
		if (count(st, store_copy_names[i], &n) != STORE_OK)
			return STORE_ERROR;
		if (n > 0) {
			log_error("%s is not empty (%s: %lld rows): the copy goes into a new database",
			    what, store_copy_names[i], (long long)n);
			return STORE_ERROR;
		}
	}
	return STORE_OK;
}

int
store_schema_current(int64_t have, int64_t want, const char *what)
{
	if (have == want)
		return STORE_OK;
	if (have == 0)
		log_error("%s has no schema (consentctl init makes it)", what);
	else
		log_error("%s is at schema version %lld, this program at %lld "
		    "(consentctl init upgrades an older one)", what, (long long)have,
		    (long long)want);
	return STORE_ERROR;
}
