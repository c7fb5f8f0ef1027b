/* store.h: the data of the service behind plain functions: the one interface a backend implements. */
#ifndef CONSENT_STORE_H
#define CONSENT_STORE_H

/*
 * The endpoints and the rest of common/ speak to the data only through
 * these functions and types, which name no SQL, no library of a backend
 * and no other module of common/ (limits.h aside).  This is the request
 * path: opening a store, the endpoints' kept store and group commit, and
 * the five calls a request makes.  What only consentctl (and the
 * dashboard) do is store_admin.h's, linked only by the programs that call
 * it: an endpoint holds none of it (tests/t0062).  Two backends implement
 * both headers, SQLite (store/sqlite/) and PostgreSQL (store/pg/), each
 * keeping its SQL as statements with bound parameters.  Every value
 * crosses as plain C data.
 *
 * Return codes: STORE_OK, or one of the positive codes where the function
 * documents it, or STORE_ERROR (the cause is already on stderr).
 */

#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"

enum {
	STORE_OK = 0,
	STORE_NOTFOUND = 1,  /* no such site, sync, domain ... */
	STORE_EXISTS = 2,    /* the thing to add is already there */
	STORE_ERROR = -1
};

enum store_mode {
	STORE_READ,   /* read only: the config endpoint */
	STORE_WRITE,  /* read-write, the file must exist: consent, scripts */
	STORE_CREATE  /* read-write, create the file: consentctl init */
};

struct store;

/*
 * Open the database at path (NULL: $CONSENT_DB, else the settings file's
 * CONSENT_DB, else the compiled-in default: store_default_path()).  On success *out owns the handle; close it with store_close().
 */
int store_open(struct store **out, const char *path, enum store_mode mode);
void store_close(struct store *st);
/* The path store_open() would use for NULL: static or the environment's. */
const char *store_default_path(void);
/* Whether path is a PostgreSQL connection string (a URI, or libpq's
 * keyword=value form) rather than a file: 1 or 0. */
int store_is_conninfo(const char *path);

/*
 * The endpoints' store: the database at store_default_path() in mode,
 * opened once and kept while the process serves requests (FastCGI,
 * io_persistent()), else opened for the one request.  A kept store is
 * opened again when the path or the mode differ, when the file at the path
 * was replaced (device or inode differ) or its schema changed
 * (schema_version or user_version: consentctl init upgraded it), so every
 * request sees what a new CGI process would.  Hand it back with
 * store_release(): failed (the request answered 500) closes it, so a
 * broken handle never serves the next request; a CGI process closes it
 * there in any case.  store_forget() closes what is kept (the process ends).
 */
int store_acquire(struct store **out, enum store_mode mode);
void store_release(struct store *st, int failed);
void store_forget(void);

/*
 * Group commit, for a process that serves several requests at once
 * (serve.c, FastCGI): between store_group_begin() and store_group_end(),
 * the consent and scripts writes of the kept store (store_consent_add,
 * store_scripts_report) share one write transaction, each inside a
 * savepoint of its own (a write that fails takes back its own changes and
 * nothing else), and the transaction is committed once, by
 * store_group_end(), so that one sync of the disk carries them all.
 * Nothing written in a group is durable before store_group_end() returns:
 * the caller holds every answer until then, and answers 500 for a write
 * whose group did not commit (store_group_committed).  A store that must
 * be opened again in the meantime (store_acquire) commits the group first,
 * and a group is numbered so that each write knows its own outcome.
 *
 * store_group_open(): whether a write made the group's transaction
 * (so more requests may join it before it is committed).
 * store_group_joined(): the group the request just served wrote into
 * (0: none), and forget it.  store_group_end(): commit what is open;
 * STORE_OK or STORE_ERROR.  store_group_committed(g): after
 * store_group_end(), whether group g committed.
 */
void store_group_begin(void);
int store_group_open(void);
unsigned store_group_joined(void);
int store_group_end(void);
int store_group_committed(unsigned g);

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
	char config_sha256[65];  /* SHA-256 of document, "" if unpublished */
};

/* Look up a site by key, with its published config, the config's prepared
 * skeleton and this month's visitor count, in one indexed statement:
 * STORE_OK, STORE_NOTFOUND or STORE_ERROR.  On STORE_OK the caller releases
 * *out with store_site_clear(). */
int store_site_get(struct store *st, const char *key, struct site *out);
void store_site_clear(struct site *s);

/* Hand each registered domain of the site to fn until it returns non-zero:
 * that value (1: the caller found its match), 0 when none did, or
 * STORE_ERROR. */
typedef int (*store_domain_fn)(const char *domain, void *arg);
int store_site_domains(struct store *st, int64_t site_id, store_domain_fn fn, void *arg);

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
	const char *created_at;     /* UTC ISO 8601 with milliseconds (clock_now) */
	const char *config_sha256;  /* the site's config_sha256, NULL if none */
	const char *builtin_sha256; /* defaults_hash() of the storing build */
	const char *digest;         /* proof_entry_digest() of all of the above */
};

/*
 * Store one entry and count its visitor for the month of its created_at, in
 * one transaction: all of it is stored or none.  Concurrent writers wait
 * (busy timeout) for the write itself, never for one another's entries: the
 * digest is the entry's own, and nothing of the log is read.
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
 * sync_id (lower-case UUID) may be NULL; a sync of another site, an
 * unknown one, or one already complete or failed is left alone.  error
 * NULL marks it complete, else failed.
 */
int store_scripts_report(struct store *st, int64_t site_id, const char *page_url,
                         const struct script_entry *e, size_t n,
                         const char *sync_id, const char *error);

/*
 * What is prepared from a published document (prepare.c) so that a config
 * request resolves nothing: the skeleton (JSON text: what picks a region
 * and a language, stamped with the build that made it), the scriptRules
 * array (JSON text), and one answer (JSON text) per region id ("" for
 * none) and language.  Plain rows: the store keeps them as they are.
 */
struct store_answer {
	const char *region;
	const char *language;
	const char *answer;
};
struct store_prepared {
	const char *skeleton;
	const char *script_rules;
	const struct store_answer *a;
	size_t n;
};

#endif
