-- schema.sql: the whole data model of the consent service (one SQLite file).
--
-- Applied by `consentctl init`, which may run any number of times: every
-- statement is idempotent.  PRAGMA user_version records the version of this
-- file the database holds; consentctl refuses a database newer than itself.
-- A column added to an existing table cannot be written idempotently here:
-- `consentctl init` adds it to an older database first (store_schema.c,
-- added_columns[]), in the same transaction, keeping every row.
--
-- Versions: 1 the first; 2 config_skeletons and config_answers;
-- 3 consent_log.gpc (NULL in the entries stored before it); 4 the proof of
-- the log: consent_log.digest, seal_id and builtin_sha256, configs.sha256,
-- sites.retention_days, consent_seals, consent_pruned, consent_erasures,
-- builtin_texts
-- (docs/proof.md, consent-log(5)); 5 the dashboard: admin_accounts,
-- admin_roles, admin_recovery_codes, admin_sessions, admin_signins,
-- admin_reset_codes, and the audit trail (audit_log, audit_seals).
-- journal_mode=WAL is set by consentctl (it is persistent in the file).
--
-- Times are UTC ISO 8601 with milliseconds ("2026-11-22T10:00:00.123Z"),
-- written by the service, never taken from a request.

CREATE TABLE IF NOT EXISTS sites (
	id          INTEGER PRIMARY KEY,
	site_key    TEXT NOT NULL UNIQUE
	            CHECK (length(site_key) BETWEEN 1 AND 64),
	name        TEXT NOT NULL,
	tier        TEXT NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'paid')),
	mau_cap     INTEGER CHECK (mau_cap IS NULL OR mau_cap >= 0),
	paused      INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
	config_id   INTEGER REFERENCES configs(id),   -- the published version, NULL if none
	created_at  TEXT NOT NULL,
	-- Entries older than this many days are deleted by `consentctl purge`;
	-- NULL: kept for ever.
	retention_days INTEGER CHECK (retention_days IS NULL OR retention_days >= 1)
);

-- Registered domains: an Origin matches a host or any subdomain of it.
CREATE TABLE IF NOT EXISTS domains (
	site_id     INTEGER NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
	host        TEXT NOT NULL CHECK (length(host) BETWEEN 1 AND 253),
	PRIMARY KEY (site_id, host)
) WITHOUT ROWID;

-- Every published version is kept; sites.config_id names the live one.
CREATE TABLE IF NOT EXISTS configs (
	id           INTEGER PRIMARY KEY,
	site_id      INTEGER NOT NULL REFERENCES sites(id),
	version      INTEGER NOT NULL CHECK (version >= 1),
	document     TEXT NOT NULL,       -- the JSON document as validated
	published_at TEXT NOT NULL,
	sha256       TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),  -- of document
	-- Who published it (version 5): a dashboard account, or "consentctl:"
	-- and the system user; NULL for versions published before.
	published_by TEXT,
	UNIQUE (site_id, version)
);

-- What a config request would otherwise compute from the published
-- document, computed by `consentctl config publish` (and by `consentctl init`
-- for every live version), so that a request parses no document
-- (common/config/prepare.c): the skeleton is the document cut to what picks a
-- region and a language (resolve.c's resolve_reads: regions' ids,
-- countries, subdivisions and default languages; the languages; the
-- category ids) plus the "stamp" of the build that prepared it,
-- script_rules its scriptRules array, and one answer per region ('' for
-- none) and language holds the resolved sdkCategories, resolvedRegion,
-- resolvedLanguage, resolvedContent and resolvedUi.  A version without
-- them, or whose stamp is not the running build's, is resolved from its
-- document.
CREATE TABLE IF NOT EXISTS config_skeletons (
	config_id    INTEGER PRIMARY KEY REFERENCES configs(id),
	skeleton     TEXT NOT NULL,
	script_rules TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS config_answers (
	config_id    INTEGER NOT NULL REFERENCES configs(id),
	region       TEXT NOT NULL,
	language     TEXT NOT NULL,
	answer       TEXT NOT NULL,
	PRIMARY KEY (config_id, region, language)
) WITHOUT ROWID;

-- The consent log: one row per decision or impression.  Only seal_id is
-- ever set after the insert (by `consentctl consent seal`); optional request
-- fields are NULL when the client did not send them.
CREATE TABLE IF NOT EXISTS consent_log (
	id                  INTEGER PRIMARY KEY,
	site_id             INTEGER NOT NULL REFERENCES sites(id),
	created_at          TEXT NOT NULL,
	anon_id_hash        TEXT NOT NULL CHECK (length(anon_id_hash) = 64),
	categories          TEXT NOT NULL,      -- JSON object as sent
	event_type          TEXT NOT NULL
	                    CHECK (event_type IN ('initial', 'update', 'impression')),
	event_action        TEXT,
	config_id           INTEGER REFERENCES configs(id),  -- published config at storage time
	published_version   INTEGER NOT NULL,   -- its version, 0 if none
	config_version      INTEGER,            -- as the client sent it
	region              TEXT,
	consent_model       TEXT,
	regulation          TEXT,
	time_to_action_ms   NUMERIC,
	interaction         TEXT,
	preferences_opened  INTEGER,
	banner_load_time_ms NUMERIC,
	banner_position     TEXT,
	page_url            TEXT,
	sdk_version         TEXT,
	language            TEXT,
	resolved_language   TEXT,
	browser             TEXT,
	os                  TEXT,
	device_type         TEXT NOT NULL
	                    CHECK (device_type IN ('desktop', 'mobile', 'tablet')),
	country             TEXT,
	-- The request carried "Sec-GPC: 1" (1) or not (0); NULL: not recorded,
	-- an entry stored before schema version 3.
	gpc                 INTEGER CHECK (gpc IN (0, 1)),
	-- SHA-256 of the entry's canonical encoding (common/proof/proof.c), written
	-- with the entry; NULL only in a database being upgraded to version 4.
	digest              TEXT CHECK (digest IS NULL OR length(digest) = 64),
	-- The seal whose Merkle tree holds the entry; NULL until sealed.
	seal_id             INTEGER REFERENCES consent_seals(id),
	-- The built-in texts in force when the entry was stored: the storing
	-- build's defaults hash, a key of builtin_texts (once consentctl init
	-- or config publish ran with that build); NULL: not recorded, an entry
	-- stored before schema version 4.
	builtin_sha256      TEXT CHECK (builtin_sha256 IS NULL OR length(builtin_sha256) = 64)
);
-- consent_log_site_time also serves the dashboard's page of the log
-- (newest first by created_at, then id: the rowid every index ends with);
-- PostgreSQL needs consent_log_site_created for it.
CREATE INDEX IF NOT EXISTS consent_log_site_time ON consent_log (site_id, created_at);
-- The leaves of a seal in tree order.  Partial: an insert (seal_id NULL)
-- does not touch it, so the consent endpoint writes no page more than
-- before.  The sealer finds unsealed entries by consent_log_site_time from
-- its last seal's last_created_at on (store_proof.c).
CREATE INDEX IF NOT EXISTS consent_log_sealed ON consent_log (seal_id, created_at, id)
	WHERE seal_id IS NOT NULL;

-- Seals: per site, a Merkle tree head over the entries sealed with it,
-- chained to the site's previous seal (docs/proof.md, consent-log(5)).  Written only by `consentctl consent seal`.
CREATE TABLE IF NOT EXISTS consent_seals (
	id          INTEGER PRIMARY KEY,
	site_id     INTEGER NOT NULL REFERENCES sites(id),
	seq         INTEGER NOT NULL CHECK (seq >= 1),
	sealed_at   TEXT NOT NULL,
	tree_size   INTEGER NOT NULL CHECK (tree_size >= 1),
	root        TEXT NOT NULL CHECK (length(root) = 64),
	prev        TEXT NOT NULL CHECK (length(prev) = 64),
	hash        TEXT NOT NULL CHECK (length(hash) = 64),
	last_created_at TEXT NOT NULL,   -- of its last leaf: where the next seal looks
	UNIQUE (site_id, seq)
);

-- The built-in texts of every build that ran `consentctl init` or
-- `consentctl config publish` on this database: pieces are exactly the
-- bytes whose SHA-256 is sha256 (docs/proof.md "The built-in texts of an entry"),
-- so a receipt shows an entry the built-in texts of its builtin_sha256.
-- Written INSERT OR IGNORE by consentctl only, never by a request.
CREATE TABLE IF NOT EXISTS builtin_texts (
	sha256      TEXT PRIMARY KEY CHECK (length(sha256) = 64),
	pieces      TEXT NOT NULL,
	recorded_at TEXT NOT NULL
);

-- The leaves of sealed entries that were purged or erased: the digest and
-- the place in the tree, nothing of the visitor, so every seal stays
-- verifiable.
CREATE TABLE IF NOT EXISTS consent_pruned (
	seal_id     INTEGER NOT NULL REFERENCES consent_seals(id),
	created_at  TEXT NOT NULL,
	entry_id    INTEGER NOT NULL,
	digest      TEXT NOT NULL CHECK (length(digest) = 64),
	PRIMARY KEY (seal_id, created_at, entry_id)
) WITHOUT ROWID;

-- That an erasure (a data subject's request) happened: when and how many
-- entries, no identifier.
CREATE TABLE IF NOT EXISTS consent_erasures (
	id          INTEGER PRIMARY KEY,
	site_id     INTEGER NOT NULL REFERENCES sites(id),
	erased_at   TEXT NOT NULL,
	entries     INTEGER NOT NULL CHECK (entries >= 0)
);

-- Monthly active users: the distinct hashes of each UTC month, and their
-- count kept beside them so the config endpoint's cap check is one lookup.
CREATE TABLE IF NOT EXISTS mau_visitors (
	site_id      INTEGER NOT NULL,
	month        TEXT NOT NULL,             -- "2026-11"
	anon_id_hash TEXT NOT NULL,
	PRIMARY KEY (site_id, month, anon_id_hash)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS mau_counts (
	site_id      INTEGER NOT NULL,
	month        TEXT NOT NULL,
	visitors     INTEGER NOT NULL,
	PRIMARY KEY (site_id, month)
) WITHOUT ROWID;

-- Script inventory: one record per (site, lower-cased domain).
CREATE TABLE IF NOT EXISTS scripts (
	site_id       INTEGER NOT NULL REFERENCES sites(id),
	domain        TEXT NOT NULL,
	category      TEXT,
	blocked       INTEGER NOT NULL CHECK (blocked IN (0, 1)),
	first_seen    TEXT NOT NULL,
	last_seen     TEXT NOT NULL,
	seen_count    INTEGER NOT NULL CHECK (seen_count >= 1),
	last_src      TEXT,
	last_page_url TEXT NOT NULL,
	PRIMARY KEY (site_id, domain)
) WITHOUT ROWID;

-- Tracker syncs started by `consentctl sync start`, closed by a report.
CREATE TABLE IF NOT EXISTS syncs (
	sync_id      TEXT PRIMARY KEY,          -- lower-case UUID
	site_id      INTEGER NOT NULL REFERENCES sites(id),
	status       TEXT NOT NULL DEFAULT 'pending'
	             CHECK (status IN ('pending', 'complete', 'failed')),
	error        TEXT,
	page_url     TEXT,
	created_at   TEXT NOT NULL,
	finished_at  TEXT
) WITHOUT ROWID;

-- ---- The audit trail (ADMIN.md 8; docs/proof.md "The audit trail") ----
-- Every change made through the dashboard or consentctl, one record each,
-- written by the store (store_audit_add) after the change succeeded:
-- when, who (an account, "consentctl:" and the system user, or "setup"),
-- the site (NULL: a record of no site: accounts, sign-ins, setup), what
-- (action), the details as JSON (never a visitor's identifier) and, for
-- configs, the version.  digest is the SHA-256 of the record's canonical
-- encoding (consent-log(5), "consent-audit/1"), written with it.  The
-- records of each site, and those of no site, are a log of their own,
-- sealed like the consent log (audit_seals, `consentctl audit seal`): a
-- site's owners can verify every record they may read, and nothing else.
CREATE TABLE IF NOT EXISTS audit_seals (
	id          INTEGER PRIMARY KEY,
	site_id     INTEGER REFERENCES sites(id),   -- NULL: the chain of no site
	seq         INTEGER NOT NULL CHECK (seq >= 1),
	sealed_at   TEXT NOT NULL,
	tree_size   INTEGER NOT NULL CHECK (tree_size >= 1),
	root        TEXT NOT NULL CHECK (length(root) = 64),
	prev        TEXT NOT NULL CHECK (length(prev) = 64),
	hash        TEXT NOT NULL CHECK (length(hash) = 64)
);
CREATE UNIQUE INDEX IF NOT EXISTS audit_seals_chain ON audit_seals (coalesce(site_id, 0), seq);
CREATE TABLE IF NOT EXISTS audit_log (
	id          INTEGER PRIMARY KEY,
	at          TEXT NOT NULL,
	actor       TEXT NOT NULL CHECK (length(actor) BETWEEN 1 AND 128),
	site_id     INTEGER REFERENCES sites(id),   -- NULL: a record of no site
	action      TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
	detail      TEXT,                           -- a JSON object, or NULL
	version     INTEGER,                        -- the config version, or NULL
	digest      TEXT NOT NULL CHECK (length(digest) = 64),
	seal_id     INTEGER REFERENCES audit_seals(id)   -- NULL until sealed
);
CREATE INDEX IF NOT EXISTS audit_log_site ON audit_log (site_id, id);
-- Version 5: the dashboard's accounts (ADMIN.md 2-5; common/store/store_account.h).
-- Times here are seconds since the epoch, given by the dashboard's clock.
-- Passwords are Argon2id PHC strings; session tokens, recovery codes and
-- reset codes are kept only as their lower-case hex SHA-256.

-- An account: its password (NULL until a reset code sets one) and its
-- second factor (totp_secret base32, NULL: none; confirmed by the first code
-- accepted; totp_last_step the step accepted last, so a code is accepted once).
CREATE TABLE IF NOT EXISTS admin_accounts (
	name          TEXT PRIMARY KEY
	              CHECK (length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^a-z0-9._@-]*'),
	password      TEXT CHECK (password IS NULL OR substr(password, 1, 10) = '$argon2id$'),
	totp_secret   TEXT,
	totp_confirmed INTEGER NOT NULL DEFAULT 0 CHECK (totp_confirmed IN (0, 1)),
	totp_last_step INTEGER,
	created_at    INTEGER NOT NULL,
	password_changed_at INTEGER
) WITHOUT ROWID;

-- One role per account and site: site_key is a site's key or '*' (every
-- site).  A role of a site that no longer exists grants nothing.
CREATE TABLE IF NOT EXISTS admin_roles (
	account     TEXT NOT NULL REFERENCES admin_accounts(name) ON DELETE CASCADE,
	site_key    TEXT NOT NULL CHECK (length(site_key) BETWEEN 1 AND 64),
	role        TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
	PRIMARY KEY (account, site_key)
) WITHOUT ROWID;

-- Recovery codes: used_at NULL until used, once.
CREATE TABLE IF NOT EXISTS admin_recovery_codes (
	account     TEXT NOT NULL REFERENCES admin_accounts(name) ON DELETE CASCADE,
	hash        TEXT NOT NULL CHECK (length(hash) = 64),
	used_at     INTEGER,
	PRIMARY KEY (account, hash)
) WITHOUT ROWID;

-- Sessions: the cookie's SHA-256, a public id to list and end it by (random,
-- not derived from the token), the CSRF token as sent to the page.
CREATE TABLE IF NOT EXISTS admin_sessions (
	token_hash  TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
	id          TEXT NOT NULL UNIQUE CHECK (length(id) BETWEEN 8 AND 32),
	account     TEXT NOT NULL REFERENCES admin_accounts(name) ON DELETE CASCADE,
	csrf        TEXT NOT NULL CHECK (length(csrf) BETWEEN 1 AND 64),
	created_at  INTEGER NOT NULL,
	last_seen   INTEGER NOT NULL,
	authenticated_at INTEGER NOT NULL,
	address     TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS admin_sessions_account ON admin_sessions (account);

-- Every sign-in attempt: the user name as typed (cut to 64 bytes), the
-- client address, the result ('pending' until known, 'ok', 'bad',
-- 'throttled', 'enrol' ...).  Throttling counts 'bad' and 'pending' in the
-- last hour per name and per address.
CREATE TABLE IF NOT EXISTS admin_signins (
	id          INTEGER PRIMARY KEY,
	at          INTEGER NOT NULL,
	username    TEXT NOT NULL CHECK (length(CAST(username AS BLOB)) <= 64),
	address     TEXT,
	result      TEXT NOT NULL CHECK (length(result) BETWEEN 1 AND 16)
);
CREATE INDEX IF NOT EXISTS admin_signins_name ON admin_signins (username, at);
CREATE INDEX IF NOT EXISTS admin_signins_address ON admin_signins (address, at);

-- One-time reset codes (consentctl user add without a password, user
-- reset-password): valid while now < expires.
CREATE TABLE IF NOT EXISTS admin_reset_codes (
	account     TEXT NOT NULL REFERENCES admin_accounts(name) ON DELETE CASCADE,
	hash        TEXT NOT NULL CHECK (length(hash) = 64),
	expires     INTEGER NOT NULL,
	PRIMARY KEY (account, hash)
) WITHOUT ROWID;

PRAGMA user_version = 5;
