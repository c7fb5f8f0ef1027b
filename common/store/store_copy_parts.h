/* store_copy_parts.h: the parts of a copy (consentctl migrate), their tables and columns, listed once for both backends. */

/*
 * No include guard: an includer defines the three macros and includes this
 * file to make from the one list what it needs (store_copy.c: the names;
 * sqlite_copy.c and pg_copy.c: their statements).  The order is the one a
 * copy takes (store_admin.h): a table after every table it refers to, the
 * sites' published version (sites.config_id) after the configs.  Each
 * table's columns are schema.sql's and schema_pg.sql's, in their order
 * (sites without config_id).
 *
 *   COPY_TABLE(table, ncols, columns, identity, fractions): a table copied
 *     as it is; identity 1 when its id is an identity (PostgreSQL moves it
 *     past the highest id copied), fractions the bits of the cells that may
 *     be fractions (SQLite reads them with strtod).
 *   COPY_CONFIG_ID(name, ncols): the part "sites.config_id" (site id,
 *     published config id).
 *   COPY_COUNTS(table, ncols, columns): the monthly-visitor counts, one row
 *     per site and month (PostgreSQL sums its slots).
 */

COPY_TABLE(sites, 8, "id, site_key, name, tier, mau_cap, paused, created_at, retention_days",
           1, 0)
COPY_TABLE(domains, 2, "site_id, host", 0, 0)
COPY_TABLE(configs, 7, "id, site_id, version, document, published_at, sha256, published_by",
           1, 0)
COPY_CONFIG_ID("sites.config_id", 2)
COPY_TABLE(config_skeletons, 3, "config_id, skeleton, script_rules", 0, 0)
COPY_TABLE(config_answers, 4, "config_id, region, language, answer", 0, 0)
COPY_TABLE(consent_seals, 9,
           "id, site_id, seq, sealed_at, tree_size, root, prev, hash, last_created_at", 1, 0)
COPY_TABLE(consent_log, 30,
           "id, site_id, created_at, anon_id_hash, categories, event_type, event_action,"
           " config_id, published_version, config_version, region, consent_model, regulation,"
           " time_to_action_ms, interaction, preferences_opened, banner_load_time_ms,"
           " banner_position, page_url, sdk_version, language, resolved_language, browser, os,"
           " device_type, country, gpc, digest, seal_id, builtin_sha256",
           1, 1u << 13 | 1u << 16)   /* time_to_action_ms, banner_load_time_ms */
COPY_TABLE(consent_pruned, 4, "seal_id, created_at, entry_id, digest", 0, 0)
COPY_TABLE(consent_erasures, 4, "id, site_id, erased_at, entries", 1, 0)
COPY_TABLE(builtin_texts, 3, "sha256, pieces, recorded_at", 0, 0)
COPY_TABLE(mau_visitors, 3, "site_id, month, anon_id_hash", 0, 0)
COPY_COUNTS(mau_counts, 3, "site_id, month, visitors")
COPY_TABLE(scripts, 9,
           "site_id, domain, category, blocked, first_seen, last_seen, seen_count, last_src,"
           " last_page_url",
           0, 0)
COPY_TABLE(syncs, 7, "sync_id, site_id, status, error, page_url, created_at, finished_at", 0, 0)
/* Version 5: the dashboard's accounts, their sessions and sign-in attempts. */
COPY_TABLE(admin_accounts, 7,
           "name, password, totp_secret, totp_confirmed, totp_last_step, created_at,"
           " password_changed_at",
           0, 0)
COPY_TABLE(admin_roles, 3, "account, site_key, role", 0, 0)
COPY_TABLE(admin_recovery_codes, 3, "account, hash, used_at", 0, 0)
COPY_TABLE(admin_sessions, 8,
           "token_hash, id, account, csrf, created_at, last_seen, authenticated_at, address",
           0, 0)
COPY_TABLE(admin_signins, 5, "id, at, username, address, result", 1, 0)
COPY_TABLE(admin_reset_codes, 3, "account, hash, expires", 0, 0)
