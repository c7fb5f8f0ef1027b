/* store_admin_fns.h: the functions of store_admin.h that each backend implements, listed once. */

/*
 * No include guard: as store_fns.h, each includer defines STORE_FN(type,
 * name, parameters, arguments) and includes this file (store_ops.h: the
 * members of struct store_admin_ops and each backend's declarations;
 * store_admin.c: the functions of store_admin.h that hand the call to the
 * backend's admin table; tests/t0062 reads the names, none of which an
 * endpoint may hold).  store_admin.h documents them.
 */

STORE_FN(int, init, (struct store *st, int64_t *from), (st, from))
STORE_FN(int, site_add, (struct store *st, const char *key, const char *name, int free_tier,
                         int64_t mau_cap, const char *const *hosts, size_t n),
         (st, key, name, free_tier, mau_cap, hosts, n))
STORE_FN(int, site_set, (struct store *st, const char *key, const struct site_change *ch),
         (st, key, ch))
STORE_FN(int, site_pause, (struct store *st, const char *key, int paused), (st, key, paused))
STORE_FN(int, site_list, (struct store *st, store_row_fn fn, void *arg), (st, fn, arg))
STORE_FN(int, site_show, (struct store *st, const char *key, cJSON **out), (st, key, out))
STORE_FN(int, domain_add, (struct store *st, const char *key, const char *host), (st, key, host))
STORE_FN(int, domain_remove, (struct store *st, const char *key, const char *host),
         (st, key, host))
STORE_FN(int, config_publish, (struct store *st, const char *key, const char *doc,
                               const struct store_prepared *prep, const char *publisher,
                               int64_t *version),
         (st, key, doc, prep, publisher, version))
STORE_FN(int, config_prepare_live, (struct store *st, const struct store_preparer *p), (st, p))
STORE_FN(int, sync_start, (struct store *st, const char *key, const char *sync_id),
         (st, key, sync_id))
STORE_FN(int, sync_show, (struct store *st, const char *sync_id, cJSON **out), (st, sync_id, out))
STORE_FN(int, consent_export, (struct store *st, const char *key, const char *since,
                               store_row_fn fn, void *arg),
         (st, key, since, fn, arg))
STORE_FN(int, scripts_list, (struct store *st, const char *key, store_row_fn fn, void *arg),
         (st, key, fn, arg))
STORE_FN(int, stats, (struct store *st, const char *key, cJSON **out), (st, key, out))
STORE_FN(int, snapshot, (struct store *st, int begin), (st, begin))
STORE_FN(int, consent_find, (struct store *st, const char *key, const char *anon_id_hash,
                             store_row_fn fn, void *arg),
         (st, key, anon_id_hash, fn, arg))
STORE_FN(int, unsealed, (struct store *st, const char *key, store_row_fn fn, void *arg),
         (st, key, fn, arg))
STORE_FN(int, consent_count, (struct store *st, const char *key, int64_t *n), (st, key, n))
STORE_FN(int, seals, (struct store *st, const char *key, store_row_fn fn, void *arg),
         (st, key, fn, arg))
STORE_FN(int, seal_leaves, (struct store *st, const char *key, int64_t seq, store_row_fn fn,
                            void *arg),
         (st, key, seq, fn, arg))
STORE_FN(int, seal, (struct store *st, const char *key, size_t max, int slack, store_seal_fn fn,
                     void *arg, int64_t *sealed),
         (st, key, max, slack, fn, arg, sealed))
STORE_FN(int, site_keys, (struct store *st, store_key_fn fn, void *arg), (st, fn, arg))
STORE_FN(int, config_version, (struct store *st, const char *key, int64_t version,
                               char **document, char sha256[65]),
         (st, key, version, document, sha256))
STORE_FN(int, config_versions, (struct store *st, const char *key, store_row_fn fn, void *arg),
         (st, key, fn, arg))
STORE_FN(int, consent_erase, (struct store *st, const char *key, const char *anon_id_hash,
                              int64_t *count),
         (st, key, anon_id_hash, count))
STORE_FN(int, erasures, (struct store *st, const char *key, store_row_fn fn, void *arg),
         (st, key, fn, arg))
STORE_FN(int, purge_entries, (struct store *st, const char *key, const char *cutoff, size_t max,
                              int dry_run, int64_t *done),
         (st, key, cutoff, max, dry_run, done))
STORE_FN(int, purge_visitors, (struct store *st, const char *month, size_t max, int dry_run,
                               int64_t *done),
         (st, month, max, dry_run, done))
STORE_FN(int, digest_missing, (struct store *st, size_t max, store_digest_fn fn, void *arg,
                               int64_t *done),
         (st, max, fn, arg, done))
STORE_FN(int, report, (struct store *st, const char *key, const char *from, const char *to,
                       cJSON **out),
         (st, key, from, to, out))
STORE_FN(int, builtin_record, (struct store *st, const char *sha256, const char *pieces,
                               size_t len),
         (st, sha256, pieces, len))
STORE_FN(int, builtin_get, (struct store *st, const char *sha256, char **pieces, size_t *len),
         (st, sha256, pieces, len))
STORE_FN(int, builtin_each, (struct store *st, store_builtin_fn fn, void *arg), (st, fn, arg))
STORE_FN(int, builtin_missing, (struct store *st, const char *key, int64_t *n), (st, key, n))
STORE_FN(int, copy_parts, (struct store *st, const char *const **parts, size_t *n),
         (st, parts, n))
STORE_FN(int, copy_count, (struct store *st, const char *part, int64_t *n), (st, part, n))
STORE_FN(int, copy_read, (struct store *st, const char *part, store_cells_fn fn, void *arg),
         (st, part, fn, arg))
STORE_FN(int, copy_begin, (struct store *st), (st))
STORE_FN(int, copy_write, (struct store *st, const char *part, store_feed_fn feed, void *arg,
                           int64_t *written),
         (st, part, feed, arg, written))
STORE_FN(int, copy_end, (struct store *st, int commit), (st, commit))

/* ---- the audit trail (store_audit.h) ---- */
STORE_FN(int, audit_add, (struct store *st, const char *actor, const char *site_key,
                          const char *action, const char *detail_json, int64_t version),
         (st, actor, site_key, action, detail_json, version))
STORE_FN(int, audit_list, (struct store *st, const struct store_audit_filter *f,
                           store_row_fn fn, void *arg),
         (st, f, fn, arg))
STORE_FN(int, audit_leaves, (struct store *st, const char *site_key, int64_t seq,
                             store_row_fn fn, void *arg),
         (st, site_key, seq, fn, arg))
STORE_FN(int, audit_unsealed, (struct store *st, const char *site_key, store_row_fn fn,
                               void *arg),
         (st, site_key, fn, arg))
STORE_FN(int, audit_count, (struct store *st, const char *site_key, int64_t *n),
         (st, site_key, n))
STORE_FN(int, audit_seals, (struct store *st, const char *site_key, store_row_fn fn, void *arg),
         (st, site_key, fn, arg))
STORE_FN(int, audit_seal, (struct store *st, const char *site_key, size_t max,
                           store_seal_fn fn, void *arg, int64_t *sealed),
         (st, site_key, max, fn, arg, sealed))
/* The dashboard's accounts (store_account.h documents them). */
STORE_FN(int, account_add, (struct store *st, const char *name, const char *phc,
                            const char *totp_secret, const char *const *recovery,
                            size_t nrecovery, const cJSON *roles, int64_t now),
         (st, name, phc, totp_secret, recovery, nrecovery, roles, now))
STORE_FN(int, account_get, (struct store *st, const char *name, struct store_account *out),
         (st, name, out))
STORE_FN(int, account_count, (struct store *st, int64_t *n), (st, n))
STORE_FN(int, account_list, (struct store *st, store_row_fn fn, void *arg), (st, fn, arg))
STORE_FN(int, account_remove, (struct store *st, const char *name), (st, name))
STORE_FN(int, account_set_password, (struct store *st, const char *name, const char *phc,
                                     const char *keep_hash, int64_t now),
         (st, name, phc, keep_hash, now))
STORE_FN(int, account_set_roles, (struct store *st, const char *name, const cJSON *roles),
         (st, name, roles))
STORE_FN(int, account_reset_2fa, (struct store *st, const char *name, const char *totp_secret,
                                  const char *const *recovery, size_t nrecovery,
                                  const char *keep_hash),
         (st, name, totp_secret, recovery, nrecovery, keep_hash))
STORE_FN(int, account_totp_accept, (struct store *st, const char *name, int64_t step),
         (st, name, step))
STORE_FN(int, account_recovery_use, (struct store *st, const char *name, const char *hash,
                                     int64_t now),
         (st, name, hash, now))
STORE_FN(int, account_recovery_left, (struct store *st, const char *name, int64_t *n),
         (st, name, n))
STORE_FN(int, reset_add, (struct store *st, const char *name, const char *hash,
                          int64_t expires),
         (st, name, hash, expires))
STORE_FN(int, reset_use, (struct store *st, const char *name, const char *hash, const char *phc,
                          int64_t now),
         (st, name, hash, phc, now))
STORE_FN(int, session_add, (struct store *st, const struct store_session *s, int64_t now),
         (st, s, now))
STORE_FN(int, session_get, (struct store *st, const char *token_hash, int64_t now, int64_t idle,
                            int64_t absolute, struct store_session *out),
         (st, token_hash, now, idle, absolute, out))
STORE_FN(int, session_reauth, (struct store *st, const char *token_hash, int64_t now),
         (st, token_hash, now))
STORE_FN(int, session_delete, (struct store *st, const char *token_hash), (st, token_hash))
STORE_FN(int, session_end, (struct store *st, const char *account, const char *id),
         (st, account, id))
STORE_FN(int, session_list, (struct store *st, const char *account, const char *current_hash,
                             store_row_fn fn, void *arg),
         (st, account, current_hash, fn, arg))
STORE_FN(int, signin_begin, (struct store *st, const char *typed, const char *address,
                             int64_t now, int64_t window, struct store_failures *by_name,
                             struct store_failures *by_address, int64_t *attempt),
         (st, typed, address, now, window, by_name, by_address, attempt))
STORE_FN(int, signin_record, (struct store *st, int64_t attempt, const char *result),
         (st, attempt, result))
STORE_FN(int, signin_list, (struct store *st, int64_t since, store_row_fn fn, void *arg),
         (st, since, fn, arg))
STORE_FN(int, account_purge, (struct store *st, int64_t now), (st, now))

/* The dashboard's sites and configs (common/admin/api_configs.c). */
STORE_FN(int, config_history, (struct store *st, const char *key, store_row_fn fn, void *arg),
         (st, key, fn, arg))

/* The dashboard's consent log (common/admin/api_log.c). */
STORE_FN(int, consent_page, (struct store *st, const char *key,
                             const struct store_log_filter *f, store_row_fn fn, void *arg,
                             struct store_page_end *end),
         (st, key, f, fn, arg, end))
STORE_FN(int, backup, (struct store *st, const char *path), (st, path))
STORE_FN(int, unbounded, (struct store *st), (st))
