/* store_ops.h: what each backend of the store gives store.c and store_admin.c, and what the backends share; private to the store. */
#ifndef CONSENT_STORE_OPS_H
#define CONSENT_STORE_OPS_H

/*
 * store.h's functions are store.c's: it picks the backend when a store is
 * opened (by the form of the database's name: a PostgreSQL connection
 * string or a file path) and hands every later call to the backend of the
 * store it is given, through the store's struct store_ops.  store_admin.h's
 * are store_admin.c's, which hands them to the backend's struct
 * store_admin_ops: the two tables are in different objects
 * (sqlite_store.c, sqlite_admin.c; pg_store.c, pg_admin.c), so that a
 * program that calls nothing of store_admin.h links the request path
 * alone.  A backend's struct store embeds a struct store_head first; the
 * rest is its own.  What both backends say alike is said here once: the
 * SQL both run as it is, and the descriptions of the rows both give.
 * Only the store (store/) includes this header.
 *
 * A program holds the backends the build gave it: the endpoints one (make
 * STORE=sqlite, the default, or STORE=postgres), consentctl both, so that
 * it can create either kind of database and copy one into the other.
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "store/store.h"
#include "store/store_account.h"
#include "store/store_admin.h"
#include "store/store_audit.h"

struct store_ops {
	const char *name;   /* "SQLite", "PostgreSQL": for messages */
	int (*open)(struct store **out, const char *path, enum store_mode mode);
	void (*close)(struct store *st);
	/* The request path (store.h): path is store_default_path(). */
	int (*acquire)(struct store **out, const char *path, enum store_mode mode);
	void (*release)(struct store *st, int failed);
	void (*forget)(void);
	void (*group_begin)(void);
	int (*group_open)(void);
	unsigned (*group_joined)(void);
	int (*group_end)(void);
	int (*group_committed)(unsigned g);
#define STORE_FN(type, name, params, args) type (*name) params;
#include "store/store_fns.h"
#undef STORE_FN
};

/* The administration (store_admin.h), one member a function. */
struct store_admin_ops {
#define STORE_FN(type, name, params, args) type (*name) params;
#include "store/store_admin_fns.h"
#undef STORE_FN
};

/* The first member of every backend's struct store (st->head). */
struct store_head {
	const struct store_ops *ops;
};

/* The head of any backend's store. */
static inline const struct store_head *
store_head_of(const struct store *st)
{
	return (const struct store_head *)(const void *)st;
}

extern const struct store_ops store_sqlite_ops;           /* sqlite_store.c */
extern const struct store_ops store_pg_ops;               /* pg_store.c */
extern const struct store_admin_ops store_sqlite_admin_ops; /* sqlite_admin.c */
extern const struct store_admin_ops store_pg_admin_ops;     /* pg_admin.c */

#define STORE_FN(type, name, params, args) \
	type sqlite_store_##name params; \
	type pg_store_##name params;
#include "store/store_fns.h"
#include "store/store_admin_fns.h"
#undef STORE_FN

/*
 * The end of a backend's store_site_get, once it has filled *s: STORE_OK,
 * or STORE_ERROR (reported, *s cleared) when a text the database holds
 * was not copied for want of memory: the name, the document of the
 * published config, the skeleton and the script rules when stored
 * (has_skeleton, has_rules).  What was prepared is used whole or not at
 * all: a skeleton without its script rules, or the rules alone, are let go.
 */
int store_site_filled(struct site *s, int has_skeleton, int has_rules);

/*
 * The columns of a consent entry as the export and the proof read them
 * (store_export_columns, store_log_columns): LOG_COLUMN_LIST(the type of
 * categories: ST_JSON for the export, ST_TEXT for the proof, which
 * digests the stored text).  gpc (version 3) and config_sha256, digest,
 * seal, builtin_sha256 (version 4) come last.
 */
#define LOG_COLUMN_LIST(categories_type) \
	{"created_at", ST_TEXT, 0}, {"anon_id_hash", ST_TEXT, 0}, \
	{"categories", categories_type, 0}, {"event_type", ST_TEXT, 0}, \
	{"event_action", ST_TEXT, 0}, {"config_version", ST_INT, 0}, \
	{"published_version", ST_INT, 0}, {"region", ST_TEXT, 0}, \
	{"consent_model", ST_TEXT, 0}, {"browser", ST_TEXT, 0}, {"os", ST_TEXT, 0}, \
	{"device_type", ST_TEXT, 0}, {"country", ST_TEXT, 0}, \
	{"regulation", ST_TEXT, 1}, {"time_to_action_ms", ST_NUMBER, 1}, \
	{"interaction", ST_TEXT, 1}, {"preferences_opened", ST_BOOL, 1}, \
	{"banner_load_time_ms", ST_NUMBER, 1}, {"banner_position", ST_TEXT, 1}, \
	{"page_url", ST_TEXT, 1}, {"sdk_version", ST_TEXT, 1}, \
	{"language", ST_TEXT, 1}, {"resolved_language", ST_TEXT, 1}, \
	{"gpc", ST_BOOL, 0}, \
	{"config_sha256", ST_TEXT, 0}, {"digest", ST_TEXT, 0}, {"seal", ST_INT, 0}, \
	{"builtin_sha256", ST_TEXT, 0}

/*
 * A consent entry as the export and the proof read it (LOG_COLUMN_LIST):
 * LOG_FIELDS from LOG_FROM (l the entry, c its config, s its seal), SQL
 * that both backends run as it is.  LOG_ROW is the proof's row
 * (store_log_columns, LOG_ROW_COLUMN_LIST): the entry's id, its fields,
 * and pruned.
 */
#define LOG_FIELDS \
	"l.created_at AS created_at, l.anon_id_hash AS anon_id_hash," \
	" l.categories AS categories, l.event_type AS event_type," \
	" l.event_action AS event_action, l.config_version AS config_version," \
	" l.published_version AS published_version, l.region AS region," \
	" l.consent_model AS consent_model, l.browser AS browser, l.os AS os," \
	" l.device_type AS device_type, l.country AS country," \
	" l.regulation AS regulation, l.time_to_action_ms AS time_to_action_ms," \
	" l.interaction AS interaction, l.preferences_opened AS preferences_opened," \
	" l.banner_load_time_ms AS banner_load_time_ms," \
	" l.banner_position AS banner_position, l.page_url AS page_url," \
	" l.sdk_version AS sdk_version, l.language AS language," \
	" l.resolved_language AS resolved_language, l.gpc AS gpc," \
	" c.sha256 AS config_sha256, l.digest AS digest, s.seq AS seal," \
	" l.builtin_sha256 AS builtin_sha256"
#define LOG_FROM \
	"consent_log l LEFT JOIN configs c ON c.id = l.config_id" \
	" LEFT JOIN consent_seals s ON s.id = l.seal_id"
#define LOG_ROW "l.id AS id, " LOG_FIELDS ", 0 AS pruned"
#define LOG_ROW_COLUMN_LIST \
	{"id", ST_INT, 0}, LOG_COLUMN_LIST(ST_TEXT), {"pruned", ST_BOOL, 0}
/* A pruned leaf (p) in the same columns: created_at and digest, its seal's
 * seq (s).  In a UNION with the entries' rows, PostgreSQL types each NULL
 * from the column of the other branch. */
#define LOG_PRUNED_FIELDS \
	"p.created_at, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL," \
	" NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL," \
	" NULL, NULL, NULL, NULL, p.digest, s.seq, NULL"

/*
 * The rows both backends give alike, each described once: a backend's
 * statement differs by its dialect only, and its description is
 * `static const struct store_column x_columns[] = { X_COLUMN_LIST };`.
 */
/* A site in store_site_list, and the start of store_site_show's row:
 * SITE_COLUMNS (s the site, c its published config). */
#define SITE_COLUMNS \
	"s.site_key AS key, s.name AS name, s.tier AS tier, s.mau_cap AS mau_cap," \
	" s.paused AS paused, coalesce(c.version, 0) AS version," \
	" s.created_at AS created_at"
#define SITE_COLUMN_LIST \
	{"key", ST_TEXT, 0}, {"name", ST_TEXT, 0}, {"tier", ST_TEXT, 0}, \
	{"mau_cap", ST_INT, 0}, {"paused", ST_BOOL, 0}, {"version", ST_INT, 0}, \
	{"created_at", ST_TEXT, 0}
/* store_sync_show */
#define SYNC_COLUMN_LIST \
	{"sync_id", ST_TEXT, 0}, {"site_key", ST_TEXT, 0}, {"status", ST_TEXT, 0}, \
	{"error", ST_TEXT, 0}, {"page_url", ST_TEXT, 0}, {"created_at", ST_TEXT, 0}, \
	{"finished_at", ST_TEXT, 0}
/* store_scripts_list */
#define SCRIPT_COLUMN_LIST \
	{"domain", ST_TEXT, 0}, {"category", ST_TEXT, 0}, {"blocked", ST_BOOL, 0}, \
	{"first_seen", ST_TEXT, 0}, {"last_seen", ST_TEXT, 0}, \
	{"seen_count", ST_INT, 0}, {"last_src", ST_TEXT, 0}, \
	{"last_page_url", ST_TEXT, 0}
/* store_stats */
#define STATS_COLUMN_LIST \
	{"mau", ST_INT, 0}, {"entries", ST_INT, 0}, \
	{"by_event_type", ST_JSON, 0}, {"by_event_action", ST_JSON, 0}, \
	{"by_gpc", ST_JSON, 0}, {"gpc_percent", ST_NUMBER, 0}
/* store_config_versions */
#define VERSION_COLUMN_LIST \
	{"version", ST_INT, 0}, {"sha256", ST_TEXT, 0}, {"document", ST_TEXT, 0}
/* store_config_history */
#define HISTORY_COLUMN_LIST \
	{"version", ST_INT, 0}, {"published_at", ST_TEXT, 0}, \
	{"published_by", ST_TEXT, 1}, {"sha256", ST_TEXT, 0}
/* store_seals */
#define SEAL_COLUMN_LIST \
	{"seq", ST_INT, 0}, {"sealed_at", ST_TEXT, 0}, {"tree_size", ST_INT, 0}, \
	{"root", ST_TEXT, 0}, {"prev", ST_TEXT, 0}, {"hash", ST_TEXT, 0}
/* store_erasures */
#define ERASURE_COLUMN_LIST \
	{"erased_at", ST_TEXT, 0}, {"entries", ST_INT, 0}
/* The log's rows with the site key (LOG_ROW, t.site_key), for digesting
 * old entries at init (store_digest_missing). */
#define DIGEST_COLUMN_LIST \
	LOG_ROW_COLUMN_LIST, {"site_key", ST_TEXT, 0}

/*
 * The audit trail's rows (store_audit.h): AUDIT_FIELDS from AUDIT_FROM (a
 * the record, t its site, s its seal), SQL both backends run as it is;
 * AUDIT_COLUMN_LIST(the type of detail, whether the record's optional
 * members are left out when they have no value): the listing's
 * (store_audit_list: ST_JSON, 1, no digest), and the proof's
 * (store_audit_record_columns: ST_TEXT, 0, the digest).
 */
#define AUDIT_FIELDS \
	"a.id AS id, a.at AS at, a.actor AS actor, t.site_key AS site_key," \
	" a.action AS action, a.detail AS detail, a.version AS version"
#define AUDIT_FROM \
	"audit_log a LEFT JOIN sites t ON t.id = a.site_id" \
	" LEFT JOIN audit_seals s ON s.id = a.seal_id"
#define AUDIT_COLUMN_LIST(detail_type, optional) \
	{"id", ST_INT, 0}, {"at", ST_TEXT, 0}, {"actor", ST_TEXT, 0}, \
	{"site_key", ST_TEXT, optional}, {"action", ST_TEXT, 0}, \
	{"detail", detail_type, optional}, {"version", ST_INT, optional}
#define AUDIT_LIST_SELECT "SELECT " AUDIT_FIELDS ", s.seq AS seal FROM " AUDIT_FROM
#define AUDIT_LIST_COLUMN_LIST AUDIT_COLUMN_LIST(ST_JSON, 1), {"seal", ST_INT, 1}
#define AUDIT_RECORD_SELECT \
	"SELECT " AUDIT_FIELDS ", a.digest AS digest, s.seq AS seal FROM " AUDIT_FROM
#define AUDIT_RECORD_COLUMN_LIST \
	AUDIT_COLUMN_LIST(ST_TEXT, 0), {"digest", ST_TEXT, 0}, {"seal", ST_INT, 0}

/* A record as store_audit_add() writes it (version -1: none). */
struct store_audit_record {
	int64_t id;
	const char *at, *actor, *site_key, *action, *detail;
	int64_t version;
};
/* Its digest (store_audit.c, consent-log(5)): 0, or -1 (reported). */
int store_audit_record_digest(const struct store_audit_record *r, char out[65]);
/* What store_audit_add() takes (store_audit.h): 0, or -1 (reported). */
int store_audit_check(const char *actor, const char *action, const char *detail_json);
/* The site key of a chain's name (store_audit_chain), NULL for the chain
 * of no site: in the string given. */
const char *store_audit_chain_key(const char *chain);

/*
 * The copy (store_copy.c, over store_copy_parts.h): the parts' names in
 * the order a copy takes them; the index of the part of that name, or -1
 * (reported, backend names the store): a name is only ever looked up,
 * never put into a statement; whether every part of the target but
 * builtin_texts is empty, counted by count (STORE_OK, or STORE_ERROR
 * reported with what, the database); whether a database (what) at schema
 * version have is at this program's want (0: no schema), STORE_OK or
 * STORE_ERROR (reported).
 */
extern const char *const store_copy_names[];
extern const size_t store_copy_nparts;
int store_copy_part(const char *name, const char *backend);
int store_copy_empty(struct store *st, const char *what,
                     int (*count)(struct store *st, const char *part, int64_t *n));
int store_schema_current(int64_t have, int64_t want, const char *what);

/*
 * store_seal() (store_admin.h), its protocol once (store_seal.c): the
 * site; in one read transaction without the write lock, the last seal and
 * the leaves after it; the seal made by fn; then in one short write
 * transaction, the check that no other sealer went first, the seal added
 * and its entries marked, all of them or STORE_EXISTS.  A backend gives
 * its statements:
 *   site_id      the site's id: STORE_OK, STORE_NOTFOUND, STORE_ERROR
 *   read_begin   the read transaction (0, or -1 reported); read_end ends it
 *   last         the site's last seal: *seq (0: none yet), its hash and
 *                its last entry's created_at less slack seconds, in the
 *                stored form, as text into hash and from ("" for NULL)
 *   leaves       up to max unsealed entries from from on, in tree order,
 *                each by store_leaf_set() into leaf[*n]
 *   write_begin  the write transaction, with the site's sealers locked
 *                out (STORE_OK, or else nothing is left open)
 *   last_seq     the site's highest seq (0: none)
 *   add          add s (last_created_at: the last leaf's) and mark the n
 *                leaves still unsealed with it: *marked how many were
 *   commit       0 or -1 (reported); rollback
 */
struct store_sealer {
	int (*site_id)(struct store *st, const char *key, int64_t *site);
	int (*read_begin)(struct store *st);
	void (*read_end)(struct store *st);
	int (*last)(struct store *st, int64_t site, int slack, int64_t *seq, char hash[66],
	            char from[40]);
	int (*leaves)(struct store *st, int64_t site, size_t max, const char *from,
	              struct store_leaf *leaf, size_t *n);
	int (*write_begin)(struct store *st, const char *key);
	int (*last_seq)(struct store *st, int64_t site, int64_t *seq);
	int (*add)(struct store *st, int64_t site, const struct store_seal *s,
	           const struct store_leaf *leaf, size_t n, int64_t *marked);
	int (*commit)(struct store *st);
	void (*rollback)(struct store *st);
};
int store_seal_run(struct store *st, const struct store_sealer *b, const char *key, size_t max,
                   int slack, store_seal_fn fn, void *arg, int64_t *sealed);

/*
 * One published config prepared again (store_config_prepare_live, both
 * backends): p->prepare() over its document, then put() stores what was
 * made (NULL when p answered that the document is resolved per request:
 * what was stored for it is cleared), and p->release() lets it go.
 * Inside the backend's transaction.  STORE_OK, or STORE_ERROR when the
 * preparer or put failed (reported).  store_prepare.c.
 */
typedef int (*store_put_prepared_fn)(struct store *st, int64_t config_id,
                                     const struct store_prepared *prep);
int store_prepare_config(struct store *st, const struct store_preparer *p, int64_t config_id,
                         const char *document, store_put_prepared_fn put);
/* Fill a leaf: 0, or -1 (reported) when the entry has no digest or its
 * time does not fit. */
int store_leaf_set(struct store_leaf *l, int64_t id, const char *created_at, const char *digest);

#endif
