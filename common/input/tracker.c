/* tracker.c: look-up in the built-in tracker database, on a domain and its parents (CONTRACT 7). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "input/tracker.h"
#include "input/tracker_data.h"

/* A suffix of the domain being looked up: len bytes, not NUL-terminated. */
struct key {
	const char *s;
	size_t len;
};

/* bsearch() order: the key's bytes against an entry's domain, as strcmp() would. */
static int
key_cmp(const void *k, const void *e)
{
	const struct key *key = k;
	const struct tracker_entry *entry = e;
	int r = strncmp(key->s, entry->domain, key->len);

	if (r != 0)
		return r;
	return entry->domain[key->len] == '\0' ? 0 : -1;
}

/*
 * The category of domain: tries the whole name, then each parent (drop the
 * leftmost label) down to the last one that still has a dot, so a bare TLD
 * is never looked up and the most specific entry wins.  Matching is on whole
 * labels only (notgoogle-analytics.com is not google-analytics.com).  One
 * trailing dot (a fully qualified name) is ignored; an empty label met before
 * a match, an empty string or NULL give NULL.  Bytes are compared as they
 * are: upper case never matches.  Allocates nothing.
 */
const char *
tracker_category(const char *domain)
{
	return tracker_match(domain, NULL);
}

/* tracker_category(), and the entry that matched into *entry. */
const char *
tracker_match(const char *domain, const char **entry)
{
	const struct tracker_entry *hit;
	const char *dot;
	struct key key;

	if (domain == NULL)
		return NULL;
	key.s = domain;
	key.len = strlen(domain);
	if (key.len > 0 && domain[key.len - 1] == '.')
		key.len--;
	while ((dot = memchr(key.s, '.', key.len)) != NULL) {
		if (dot == key.s)
			return NULL;
		hit = bsearch(&key, tracker_table, tracker_table_len,
		    sizeof(tracker_table[0]), key_cmp);
		if (hit != NULL) {
			if (entry != NULL)
				*entry = hit->domain;
			return hit->category;
		}
		key.len -= (size_t)(dot + 1 - key.s);
		key.s = dot + 1;
	}
	return NULL;
}

/* Entries in common/input/trackers.tsv, counted when the table was generated. */
size_t
tracker_count(void)
{
	return tracker_table_len;
}
