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
-- (docs/proof.md, consent-log(5)).
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

PRAGMA user_version = 4;
