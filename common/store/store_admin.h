/* store_admin.h: what only consentctl and the dashboard ask of the store: schema, sites, configs, the log and its proof, the copy. */
#ifndef CONSENT_STORE_ADMIN_H
#define CONSENT_STORE_ADMIN_H

/*
 * The administration of the data, over an open store (store.h's
 * store_open()).  Its functions are store_admin.c's, which hands each call
 * to the backend's admin table (store_admin_fns.h): a program that calls
 * none of them links none of them, so the endpoints, which include only
 * store.h, hold no code of the administration (tests/t0062).
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "store/store.h"

/* Create or upgrade the schema (the backend's own, schema.sql or
 * schema_pg.sql) in one transaction; SQLite's also set WAL.  STORE_EXISTS
 * when the database is newer than this program.  *from receives the
 * version the database had (0: new). */
int store_init(struct store *st, int64_t *from);

/* mau_cap -1: none of its own.  The n hosts (normalised, repeats allowed)
 * are registered in the same transaction.  STORE_EXISTS if the key is taken. */
int store_site_add(struct store *st, const char *key, const char *name,
                   int free_tier, int64_t mau_cap,
                   const char *const *hosts, size_t n);

/* What consentctl site set changes: name NULL, free_tier -1, mau_cap_set 0
 * and retention_set 0 leave that field alone; mau_cap -1 with mau_cap_set
 * clears the site's own cap, retention_days -1 with retention_set its
 * retention (entries kept for ever). */
struct site_change {
	const char *name;
	int free_tier;
	int mau_cap_set;
	int64_t mau_cap;
	int retention_set;
	int64_t retention_days;
};
/* Apply ch in one statement: all of it or nothing. */
int store_site_set(struct store *st, const char *key, const struct site_change *ch);
int store_site_pause(struct store *st, const char *key, int paused);

/*
 * Listings reach consentctl as rows: JSON objects whose members are the
 * query's output columns, each described once, in order, by name, type and
 * whether it is left out when it has no value.  Both backends check
 * every statement's columns against their description, so a renamed alias
 * cannot silently change a type or a name.
 */
enum store_type {
	ST_TEXT,    /* a string */
	ST_INT,     /* an integer */
	ST_NUMBER,  /* an integer or a fraction */
	ST_BOOL,    /* stored 0/1, given as false/true */
	ST_JSON     /* stored as JSON text, given as its value */
};
struct store_column {
	const char *name;
	enum store_type type;
	int optional;   /* 1: left out of the row when it has no value */
};

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


/*
 * Publish a validated document with what was prepared from it (NULL, or no
 * skeleton: nothing; the document is then resolved per request), by
 * publisher (a dashboard account, "consentctl:USER"; NULL: not known).
 * The new version is one more than the site's highest, decided inside the
 * write transaction, so two publishers never get the same number; the site
 * then points at it, and older versions stay.  *version receives the number.
 */
int store_config_publish(struct store *st, const char *key, const char *doc,
                         const struct store_prepared *prep, const char *publisher,
                         int64_t *version);

/*
 * Prepare again every site's published version, in one transaction:
 * prepare() fills *out from the document (0, or 1 to store nothing for it,
 * or -1 to give up), what it made replaces what was stored, and release()
 * then frees it.  For consentctl init: a database from before the prepared
 * tables, or a build whose built-in texts or resolver changed.
 */
struct store_preparer {
	int (*prepare)(void *arg, const char *document, struct store_prepared *out);
	void (*release)(void *arg, struct store_prepared *out);
	void *arg;
};
int store_config_prepare_live(struct store *st, const struct store_preparer *p);

/* A new sync for the site with this id (already generated). */
int store_sync_start(struct store *st, const char *key, const char *sync_id);
/* The sync as a new JSON object: sync_id, site_key, status, error,
 * page_url, created_at, finished_at.  STORE_NOTFOUND. */
int store_sync_show(struct store *st, const char *sync_id, cJSON **out);

/* Consent entries of a site, oldest first, created_at >= since (NULL: all);
 * each row holds the CONTRACT 3 export fields, optional ones only when set,
 * then config_sha256, digest and seal (its seq, null when not sealed yet):
 * the columns of store_export_columns, in that order. */
int store_consent_export(struct store *st, const char *key, const char *since,
                         store_row_fn fn, void *arg);
extern const struct store_column store_export_columns[];
extern const size_t store_export_ncolumns;
/* Script records of a site, by domain. */
int store_scripts_list(struct store *st, const char *key, store_row_fn fn, void *arg);
/* New JSON object: mau (this month), entries, by_event_type{},
 * by_event_action{}, by_gpc{sent, not_sent, not_recorded}, gpc_percent
 * (null when no entry recorded the signal).  STORE_NOTFOUND. */
int store_stats(struct store *st, const char *key, cJSON **out);

/* ---- the proof of the log (consentctl consent seal, verify, head, receipt,
 * find, erase; purge) ---- */

/*
 * Rows of the log for the proof: id, then the columns of the export with
 * categories as the stored text, config_sha256, digest, seal, pruned
 * (true: a purged or erased entry of which only created_at and digest are
 * left).  store_log_columns describes them.
 */
extern const struct store_column store_log_columns[];
extern const size_t store_log_ncolumns;

/*
 * Read what follows as one snapshot of the database (begin 1), until
 * store_snapshot(st, 0): verify and receipt see entries and seals of one
 * moment, whatever writers and sealers do meanwhile.  Between the two, no
 * call that writes, nor one that takes its own snapshot (store_site_show,
 * store_seal).  STORE_OK or STORE_ERROR.
 */
int store_snapshot(struct store *st, int begin);

/* The entries of one visitor (anon_id_hash), oldest first (store_log_columns).
 * STORE_NOTFOUND: no such site. */
int store_consent_find(struct store *st, const char *key, const char *anon_id_hash,
                       store_row_fn fn, void *arg);
/* Entries of the site not sealed yet, oldest first (store_log_columns). */
int store_unsealed(struct store *st, const char *key, store_row_fn fn, void *arg);
/* How many entries the site has (sealed or not, pruned ones not counted). */
int store_consent_count(struct store *st, const char *key, int64_t *n);

/* The seals of a site by seq: seq, sealed_at, tree_size, root, prev, hash. */
int store_seals(struct store *st, const char *key, store_row_fn fn, void *arg);
/* The leaves of the site's seal seq in tree order (created_at, then id),
 * live and pruned (store_log_columns).  STORE_NOTFOUND: no such seal. */
int store_seal_leaves(struct store *st, const char *key, int64_t seq,
                      store_row_fn fn, void *arg);

/* A leaf as the sealer sees it, and the seal it makes. */
struct store_leaf {
	int64_t id;
	char created_at[32];
	char digest[65];
};
struct store_seal {
	int64_t seq;           /* in: the next number */
	char sealed_at[32];    /* in */
	char prev[65];         /* in: the previous seal's hash, or 64 zeros */
	int64_t tree_size;     /* out */
	char root[65];         /* out */
	char hash[65];         /* out */
};
/* Make the seal over n leaves (in tree order): 0, or non-zero to give up. */
typedef int (*store_seal_fn)(void *arg, const char *key, const struct store_leaf *l,
                             size_t n, struct store_seal *s);
/*
 * Seal at most max of the site's unsealed entries, the oldest of those
 * stored since the site's last seal's last entry less slack seconds (the
 * first seal of a run: SEAL_SLACK_SECONDS; the next ones of the same run,
 * which go on where it ended: 0): read them without the write lock, let fn make the seal, then in one short write
 * transaction add the seal and mark its entries.  *sealed receives how many
 * (0: nothing to seal).  STORE_EXISTS when another sealer went first or an
 * entry vanished meanwhile (nothing changed; run it again).
 */
int store_seal(struct store *st, const char *key, size_t max, int slack, store_seal_fn fn,
               void *arg, int64_t *sealed);

/* Hand fn every site key (sorted) until it returns non-zero. */
typedef int (*store_key_fn)(const char *key, int64_t retention_days, void *arg);
int store_site_keys(struct store *st, store_key_fn fn, void *arg);

/* The document of the site's published version (caller frees) and its
 * stored SHA-256.  STORE_NOTFOUND: no such site or version. */
int store_config_version(struct store *st, const char *key, int64_t version,
                         char **document, char sha256[65]);
/* Every published version of the site: version, sha256, document. */
int store_config_versions(struct store *st, const char *key, store_row_fn fn, void *arg);

/*
 * Erase every entry of one visitor of the site (a data subject's request):
 * found without the write lock, deleted in one short write transaction
 * (with any stored since the search): sealed entries leave their leaf in
 * consent_pruned, the visitor leaves the month sets, and an erasure record
 * (time and count) is added.  Deleted content is overwritten (SQLite's
 * secure_delete) and the WAL is checkpointed and truncated afterwards, so
 * that no byte of the visitor's hash is left in the database files.
 * *count receives the number of entries erased.
 */
int store_consent_erase(struct store *st, const char *key, const char *anon_id_hash,
                        int64_t *count);
/* The erasures of a site: erased_at, entries. */
int store_erasures(struct store *st, const char *key, store_row_fn fn, void *arg);

/*
 * Purge: the site's entries created before cutoff, at most max per call,
 * oldest first, in one short write transaction (sealed ones leave their
 * leaf, as erase).  *done receives how many.  With dry_run nothing is
 * deleted and *done is how many would be (all of them, max ignored).
 */
int store_purge_entries(struct store *st, const char *key, const char *cutoff,
                        size_t max, int dry_run, int64_t *done);
/* The same for the monthly-visitor rows of months before month ("2026-11"),
 * of every site. */
int store_purge_visitors(struct store *st, const char *month, size_t max,
                         int dry_run, int64_t *done);

/*
 * consentctl init, after the schema: digest every entry without one (a
 * database from before schema version 4), at most max per transaction,
 * with fn given the site key and the row (store_log_columns): 0 with the
 * digest in out, or non-zero to give up.  *done receives how many.
 */
typedef int (*store_digest_fn)(void *arg, const char *key, const cJSON *row, char out[65]);
int store_digest_missing(struct store *st, size_t max, store_digest_fn fn, void *arg,
                         int64_t *done);
/*
 * The figures of `consentctl report` over the entries of a site stored in
 * [from, to) (times in the stored form, "YYYY-MM-DDTHH:MM:SS.mmmZ"), each
 * an aggregate, all read in one transaction, as a new object (caller
 * owns).  Counts of decisions (event_type initial or update) by
 * event_action are the members opt_in, opt_out, partial, acknowledge:
 *   totals        entries, impressions, decisions, visitors (distinct),
 *                 the four actions, gpc_sent, gpc_not_sent, gpc_not_recorded
 *   daily         [{day "YYYY-MM-DD", impressions, decisions, actions}],
 *                 the days with entries, oldest first
 *   by_region, by_device, by_browser, by_position
 *                 [{key (null: not sent), decisions, actions}], largest first
 *   categories    [{category, visitors, allowed}]: the visitors whose last
 *                 decision of the period (the one stored last) names the
 *                 category, and how many of them it allows; by category id
 *   time_to_action {count, median_ms (null for none), buckets [{from_ms,
 *                 to_ms (null: no end), count}]} of the decisions that sent it
 *   mau           [{month "YYYY-MM", visitors}] the months the period
 *                 touches that have visitors
 *   scripts       the script records seen in the period (first seen before
 *                 its end, last seen after its start): scripts list's
 *                 columns but last_src, by domain
 * STORE_NOTFOUND for an unknown site.
 */
int store_report(struct store *st, const char *key, const char *from, const char *to,
                 cJSON **out);

/*
 * The built-in texts of a build (table builtin_texts): pieces are the
 * len bytes whose SHA-256 is sha256 (defaults_pieces()).  Recorded INSERT
 * OR IGNORE by consentctl init and config publish, never by a request.
 */
int store_builtin_record(struct store *st, const char *sha256, const char *pieces, size_t len);

/* The pieces recorded under sha256: a new buffer of *len bytes and a NUL
 * (caller frees it).  STORE_OK, STORE_NOTFOUND, STORE_ERROR. */
int store_builtin_get(struct store *st, const char *sha256, char **pieces, size_t *len);

/* Every record, oldest first: fn returns STORE_OK to go on (the strings
 * are valid during the call only). */
typedef int (*store_builtin_fn)(void *arg, const char *sha256, const char *pieces, size_t len,
                                const char *recorded_at);
int store_builtin_each(struct store *st, store_builtin_fn fn, void *arg);

/* How many entries of the site name built-in texts that have no record
 * (their build never ran init or publish on this database). */
int store_builtin_missing(struct store *st, const char *key, int64_t *n);

/* ---- copying a whole database into another (consentctl migrate) ---- */

/*
 * A copy goes part by part: each part is the rows of one table, in columns
 * both stores give and take in the same order (the PostgreSQL store's
 * monthly-visitor counts as one row per site and month, their sum), and
 * "sites.config_id" (site id, published config id): the sites are copied
 * without their published version, which points at a config, and get it in
 * that part, after the configs (each table then only refers to what was
 * copied before it).  Values cross as text, NULL for SQL NULL: integers in
 * decimal, fractions as the shortest text that reads back as the same
 * double.
 *
 * store_copy_parts(): the parts, in the order a copy takes them (static
 * strings), after checking that the database is at this program's schema
 * version (else STORE_ERROR, reported: consentctl init upgrades it).
 * store_copy_count(): how many rows the part has; store_copy_read(): hand
 * fn each of them (the cells are valid during the call only) until it
 * returns non-zero: that value, STORE_OK, or STORE_ERROR.  Read the source
 * between store_snapshot(st, 1) and store_snapshot(st, 0), so that the
 * counts and the rows are those of one moment.
 *
 * On the target, one transaction: store_copy_begin() starts it and checks
 * the schema version and that the database holds nothing (every table
 * empty but builtin_texts, which consentctl init fills, and whose rows it
 * then deletes: the copy brings the source's; else STORE_ERROR, reported
 * with a table that is not empty).  store_copy_write(st, part, feed,
 * arg, &written) writes one part: it calls feed(arg, put, put_arg) once,
 * which hands put each row (what store_copy_read gives) and returns 0 or
 * non-zero to give up; *written receives how many rows were written.  A
 * part whose name the store does not know is refused before anything is
 * done with it.  store_copy_count() then counts within the transaction,
 * and store_copy_end() commits it (commit 1) or takes all of it back.
 * Each returns STORE_OK or STORE_ERROR (reported; store_copy_read also
 * fn's non-zero return); after a failure on the target only
 * store_copy_end(st, 0) is of use.
 */
#define STORE_COPY_CELLS_MAX 30   /* the most columns of a part: consent_log's */
typedef int (*store_cells_fn)(void *arg, const char *const *cells, size_t n);
typedef int (*store_feed_fn)(void *arg, store_cells_fn put, void *put_arg);
int store_copy_parts(struct store *st, const char *const **parts, size_t *n);
int store_copy_count(struct store *st, const char *part, int64_t *n);
int store_copy_read(struct store *st, const char *part, store_cells_fn fn, void *arg);
int store_copy_begin(struct store *st);
int store_copy_write(struct store *st, const char *part, store_feed_fn feed, void *arg,
                     int64_t *written);
int store_copy_end(struct store *st, int commit);

/* ---- the dashboard's sites and configs (common/admin/api_configs.c) ---- */

/* Every published version of the site, newest first, without its
 * document: version, published_at, published_by (left out when not
 * known), sha256.  STORE_NOTFOUND for an unknown site. */
int store_config_history(struct store *st, const char *key, store_row_fn fn, void *arg);

/* ---- the dashboard's consent log (common/admin/api_log.c) ---- */

/*
 * One page of a site's consent log, newest first (created_at, then id,
 * descending), filtered: every member a filter when set (NULL, -1: none).
 * Times are the stored form or a prefix of it; [from, to).  gpc: 0 not
 * sent, 1 sent, 2 not recorded.  before_at/before_id: only the rows
 * strictly before that (created_at, id), the keyset of the page before.
 * At most limit rows, each "id" then the export's columns
 * (store_page_columns).  window (0: none) bounds the walk: at most that
 * many entries of the period are looked at, the newest before the upper
 * end; when there were more, end->walked is 1 and end->at, end->id the
 * last one looked at (the next page's keyset: the rows before it).
 * STORE_NOTFOUND for an unknown site.
 */
struct store_log_filter {
	const char *from, *to;
	const char *event_type, *event_action, *region, *country;
	int gpc;
	int64_t version;
	const char *before_at;
	int64_t before_id;
	int limit;
	int64_t window;
};
struct store_page_end {
	int walked;
	char at[32];
	int64_t id;
};
int store_consent_page(struct store *st, const char *key, const struct store_log_filter *f,
                       store_row_fn fn, void *arg, struct store_page_end *end);
extern const struct store_column store_page_columns[];
extern const size_t store_page_ncolumns;
/*
 * A consistent copy of the whole database into the file path (new or
 * empty), made while writers go on: SQLite's online backup API.
 * STORE_OK or STORE_ERROR (reported; the PostgreSQL store has none:
 * pg_dump is its tool).
 */
int store_backup(struct store *st, const char *path);

/* What follows on st waits on the database per statement, as
 * consentctl's statements do, not within the request's bound
 * (PostgreSQL's PG_REQUEST_MS): a download that streams the whole log.
 * SQLite's store has no such bound: nothing changes.  STORE_OK. */
int store_unbounded(struct store *st);

/* The page's upper end as one row value, for both backends: the cursor's
 * (before_at, before_id) unless to comes first, else (to, 0), else
 * ("~", INT64_MAX), after every stored time.  *at points into f or at a static string. */
void store_page_upper(const struct store_log_filter *f, const char **at, int64_t *id);

#endif
