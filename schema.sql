-- schema.sql: the whole data model of the consent service (one SQLite file).
--
-- Applied by `consentctl init`, which may run any number of times: every
-- statement is idempotent.  PRAGMA user_version records the version of this
-- file the database holds; consentctl refuses a database newer than itself.
-- A column added to an existing table cannot be written idempotently here:
-- `consentctl init` adds it to an older database first (store_admin.c,
-- added_columns[]), in the same transaction, keeping every row.
--
-- Versions: 1 the first; 2 config_skeletons and config_answers;
-- 3 consent_log.gpc (NULL in the entries stored before it).
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
	created_at  TEXT NOT NULL
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
	UNIQUE (site_id, version)
);

-- What a config request would otherwise compute from the published
-- document, computed by `consentctl config publish` (and by `consentctl init`
-- for every live version), so that a request parses no document:
-- the skeleton is the document cut to what picks a region and a language
-- (regions' ids, countries, subdivisions and default languages; the
-- languages; the category ids), script_rules its scriptRules array, and one
-- answer per region ('' for none) and language holds the resolved
-- sdkCategories, resolvedRegion, resolvedLanguage, resolvedContent and
-- resolvedUi.  A version without them is resolved from its document.
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

-- The consent log: one row per decision or impression, never updated.
-- Optional request fields are NULL when the client did not send them.
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
	gpc                 INTEGER CHECK (gpc IN (0, 1))
);
CREATE INDEX IF NOT EXISTS consent_log_site_time ON consent_log (site_id, created_at);

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

PRAGMA user_version = 3;
