/* store_fns.h: the request path's functions of store.h that each backend implements on an open store, listed once. */

/*
 * No include guard: each includer defines STORE_FN(type, name, parameters,
 * arguments) and includes this file to make from the one list what it
 * needs (store_ops.h: the members of struct store_ops and each backend's
 * declarations; store.c: the functions of store.h that hand the call to
 * the backend of the store).  Every one returns int and takes the store
 * first; store.h documents them.  The few that do not fit (open, close,
 * the request path's acquire and group commit) are in struct store_ops by
 * hand.  What only consentctl calls is store_admin_fns.h's list.
 */

STORE_FN(int, site_get, (struct store *st, const char *key, struct site *out), (st, key, out))
STORE_FN(int, site_domains, (struct store *st, int64_t site_id, store_domain_fn fn, void *arg),
         (st, site_id, fn, arg))
STORE_FN(int, config_answer, (struct store *st, int64_t config_id, const char *region,
                              const char *lang, char **answer),
         (st, config_id, region, lang, answer))
STORE_FN(int, consent_add, (struct store *st, const struct consent_entry *e), (st, e))
STORE_FN(int, scripts_report, (struct store *st, int64_t site_id, const char *page_url,
                               const struct script_entry *e, size_t n, const char *sync_id,
                               const char *error),
         (st, site_id, page_url, e, n, sync_id, error))
