/* store.h: every SQL statement of the service, behind plain functions. */
#ifndef CONSENT_STORE_H
#define CONSENT_STORE_H

/*
 * The endpoints and consentctl speak to the data only through these
 * functions, so a second backend can replace store.c and store_admin.c
 * without touching them.  The SQLite backend keeps all SQL in those two files,
 * as prepared statements with bound parameters.
 *
 * Return codes: STORE_OK, or one of the positive codes where the function
 * documents it, or STORE_ERROR (the cause is already on stderr).
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "limits.h"

enum {
	STORE_OK = 0,
	STORE_NOTFOUND = 1,  /* no such site, sync, domain ... */
	STORE_EXISTS = 2,    /* the thing to add is already there */
	STORE_ERROR = -1
};

enum store_mode {
	STORE_READ,   /* SQLITE_OPEN_READONLY: the config endpoint */
	STORE_WRITE,  /* read-write, the file must exist: consent, scripts */
	STORE_CREATE  /* read-write, create the file: consentctl init */
};

struct store;

/*
 * Open the database at path (NULL: $CONSENT_DB, else the compiled-in
 * default).  On success *out owns the handle; close it with store_close().
 */
int store_open(struct store **out, const char *path, enum store_mode mode);
void store_close(struct store *st);
/* The path store_open() would use for NULL. */
const char *store_default_path(void);

/* A site as the endpoints need it, with its published config. */
struct site {
	int64_t id;
	char key[SITE_KEY_MAX + 1];
	char *name;           /* owned */
	int paused;
	int free_tier;
	int64_t mau_cap;      /* the site's own cap, or -1 when it has none */
	int64_t config_id;    /* published config row, 0 if unpublished */
	int64_t version;      /* published version, 0 if unpublished */
	char *document;       /* owned published JSON, NULL if unpublished */
	char *skeleton;       /* owned, its prepared skeleton, or NULL */
	char *script_rules;   /* owned, its prepared scriptRules, or NULL */
	int64_t visitors;     /* distinct visitors in the current UTC month */
};

/* Look up a site by key, with its published config, the config's prepared
 * skeleton and this month's visitor count, in one indexed statement:
 * STORE_OK, STORE_NOTFOUND or STORE_ERROR.  On STORE_OK the caller releases
 * *out with store_site_clear(). */
int store_site_get(struct store *st, const char *key, struct site *out);
void store_site_clear(struct site *s);

/* Whether host (lower case, from origin_host()) is registered for the site
 * or is a subdomain of a registered domain: 1, 0, or STORE_ERROR. */
int store_origin_allowed(struct store *st, int64_t site_id, const char *host);

/* The prepared answer of a published config for a region id ("" for none)
 * and a language: STORE_OK with *answer owned by the caller (free()), or
 * STORE_NOTFOUND (not prepared: resolve the document), or STORE_ERROR. */
int store_config_answer(struct store *st, int64_t config_id, const char *region,
                        const char *lang, char **answer);

/* An optional value of a consent entry: absent (NULL), text, integer, real. */
struct store_value {
	enum { SV_NULL = 0, SV_TEXT, SV_INT, SV_REAL } type;
	const char *text;
	int64_t i;
	double r;
};

/* One consent log entry, everything already validated and enriched. */
struct consent_entry {
	int64_t site_id;
	int64_t config_id;          /* 0: none published */
	int64_t published_version;  /* 0: none published */
	const char *anon_id_hash;   /* 64 lower-case hex characters */
	const char *categories;     /* JSON object text */
	const char *event_type;
	struct store_value event_action, config_version, region, consent_model,
	    regulation, time_to_action_ms, interaction, preferences_opened,
	    banner_load_time_ms, banner_position, page_url, sdk_version,
	    language, resolved_language;
	const char *browser, *os;   /* NULL when no User-Agent */
	const char *device_type;
	const char *country;        /* NULL when unknown */
	int gpc;                    /* 1: the request carried Sec-GPC: 1 */
};

/*
 * Store one entry and count its visitor for this month, in one transaction:
 * all of it is stored or none.  Concurrent writers wait (busy timeout).
 */
int store_consent_add(struct store *st, const struct consent_entry *e);

/* One reported script, after de-duplication and categorisation. */
struct script_entry {
	const char *domain;    /* lower case */
	const char *src;       /* NULL if not sent */
	const char *category;  /* decided category or NULL: keep the previous */
	int blocked;
};

/*
 * Upsert every entry of one report and close the sync, in one transaction.
 * sync_id (lower-case UUID) may be NULL; a sync of another site, or an
 * unknown one, is left alone.  error NULL marks it complete, else failed.
 */
int store_scripts_report(struct store *st, int64_t site_id, const char *page_url,
                         const struct script_entry *e, size_t n,
                         const char *sync_id, const char *error);

/* ---- administration (consentctl), store_admin.c ---- */

/* Create or upgrade the schema from its SQL text, set WAL.  STORE_EXISTS
 * when the database is newer than this program. */
int store_init(struct store *st, const char *schema_sql);

/* mau_cap -1: none of its own.  The n hosts (normalised, repeats allowed)
 * are registered in the same transaction.  STORE_EXISTS if the key is taken. */
int store_site_add(struct store *st, const char *key, const char *name,
                   int free_tier, int64_t mau_cap,
                   const char *const *hosts, size_t n);

/* Change what is given: name NULL, free_tier -1, mau_cap_set 0 leave that
 * field alone; mau_cap -1 with mau_cap_set clears the site's own cap. */
int store_site_set(struct store *st, const char *key, const char *name,
                   int free_tier, int mau_cap_set, int64_t mau_cap);
int store_site_pause(struct store *st, const char *key, int paused);

/* A callback receives each row as a JSON object it must not keep; a
 * non-zero return stops the walk and is returned. */
typedef int (*store_row_fn)(const cJSON *row, void *arg);

/* Every site: key, name, tier, mau_cap, paused, version, created_at. */
int store_site_list(struct store *st, store_row_fn fn, void *arg);
/* One site as a new JSON object (caller owns): the list's fields plus
 * domains, published_at and mau (this month).  STORE_NOTFOUND. */
int store_site_show(struct store *st, const char *key, cJSON **out);

int store_domain_add(struct store *st, const char *key, const char *host);
int store_domain_remove(struct store *st, const char *key, const char *host);

struct prepared;   /* resolve.h */

/* Publish a validated document with what was prepared from it (resolve_
 * prepare(); NULL or empty: nothing, the document is resolved per request):
 * *version receives the new number. */
int store_config_publish(struct store *st, const char *key, const char *doc,
                         const struct prepared *prep, int64_t *version);

/* Prepare again every site's published version, in one transaction: fn
 * fills *out from the document (0, or 1 to store nothing for it, or -1 to
 * give up), and what it made replaces what was stored.  For consentctl
 * init: a database from before the prepared tables, or a build whose
 * built-in texts changed. */
typedef int (*store_prepare_fn)(void *arg, const char *document, struct prepared *out);
int store_config_prepare_live(struct store *st, store_prepare_fn fn, void *arg);

/* A new sync for the site with this id (already generated). */
int store_sync_start(struct store *st, const char *key, const char *sync_id);
/* The sync as a new JSON object: sync_id, site_key, status, error,
 * page_url, created_at, finished_at.  STORE_NOTFOUND. */
int store_sync_show(struct store *st, const char *sync_id, cJSON **out);

/* Consent entries of a site, oldest first, created_at >= since (NULL: all);
 * each row holds the CONTRACT 3 export fields, optional ones only when set. */
int store_consent_export(struct store *st, const char *key, const char *since,
                         store_row_fn fn, void *arg);
/* Script records of a site, by domain. */
int store_scripts_list(struct store *st, const char *key, store_row_fn fn, void *arg);
/* New JSON object: mau (this month), entries, by_event_type{},
 * by_event_action{}, by_gpc{sent, not_sent, not_recorded}, gpc_percent
 * (null when no entry recorded the signal).  STORE_NOTFOUND. */
int store_stats(struct store *st, const char *key, cJSON **out);

#endif
