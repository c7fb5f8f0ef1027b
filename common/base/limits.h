/* limits.h: every limit of the service, each with the reason for its value. */
#ifndef CONSENT_LIMITS_H
#define CONSENT_LIMITS_H

/* Largest request body read (CONTRACT 7): a consent entry with 50 categories
 * and a 2000-character page_url is under 8 KiB; a full scripts report of 100
 * entries with 2000-character URLs can exceed 64 KiB only by abuse. */
#define BODY_MAX 65536

/* What is read and thrown away of a body that was refused or not needed,
 * so the server does not cut the answer short (http_finish): the servers'
 * shipped limits (LimitRequestBody, server.max-request-size) are 128 KiB. */
#define DRAIN_MAX 131072

/* Site keys are 1 to 64 characters of A-Za-z0-9_- (CONTRACT 3). */
#define SITE_KEY_MAX 64

/* Spec 8: anon_id length in characters. */
#define ANON_ID_MAX 100
/* Spec 8: entries in the consent categories map. */
#define CATEGORIES_MAX 50
/* Spec 8: interaction length in characters. */
#define INTERACTION_MAX 50
/* Spec 8: page_url of a consent entry, in characters. */
#define CONSENT_PAGE_URL_MAX 2000
/* Spec 8: page_url of a scripts report, in characters. */
#define SCRIPTS_PAGE_URL_MAX 500
/* Spec 8: entries in one scripts report. */
#define SCRIPTS_MAX 100
/* Spec 8: error text of a scripts report, in characters. */
#define SCRIPT_ERROR_MAX 500
/* Spec 8: src of one script entry, in characters. */
#define SCRIPT_SRC_MAX 2000
/* Spec 8: domain of one script entry, in characters. */
#define SCRIPT_DOMAIN_MAX 500

/* Fields the spec gives no length: a region or regulation id, a layout name,
 * a version string.  Generous for real values, small enough that nobody can
 * use the consent log as free storage. */
#define TOKEN_MAX 64
/* BCP 47 tags are at most 35 characters in practice (RFC 5646 4.4.1). */
#define LANG_TAG_MAX 35
/* Category ids: 1 to 50 characters of a-z0-9_- (CONTRACT 4). */
#define CATEGORY_ID_MAX 50

/* Millisecond fields (time_to_action_ms, banner_load_time_ms): a banner left
 * open for a week is still a real measurement; anything beyond is noise. */
#define MS_FIELD_MAX 604800000.0
/* config_version: versions count 1, 2, 3 per site; 2^31-1 is never reached. */
#define VERSION_MAX 2147483647.0

/* Query string and header values we parse.  RFC 9110 sets no limit; servers
 * commonly cap a header line at 8 KiB, so longer values are refused. */
#define QUERY_MAX 8192
#define HEADER_MAX 8192
/* A DNS name is at most 253 characters (RFC 1035); with scheme and port an
 * Origin never needs more than this. */
#define HOST_MAX 253
#define ORIGIN_MAX 300

/* Languages considered from Accept-Language: a browser sends a handful. */
#define ACCEPT_LANG_MAX_TAGS 16

/* How long a writer waits for SQLite's write lock before answering 500
 * (milliseconds).  A write holds the lock for well under a millisecond, but
 * a burst of hundreds of CGI processes on two cores can queue for seconds;
 * a consent is worth waiting for, and 30 s stays under the 60 s CGI
 * timeout of Apache and lighttpd. */
#define DB_BUSY_TIMEOUT_MS 30000

/* WAL frames (pages) after which a commit checkpoints and truncates the WAL
 * (sqlite_db.c, the WAL hook): every process that opens the database first reads the whole
 * WAL, so it is kept to a dozen writes' worth (a consent adds about 5 frames);
 * 64 measured best, 0.05 ms per request less than 32 (issue 14); 1 (every
 * commit) and 256 slower. */
#define WAL_CHECKPOINT_FRAMES 64

/* SQLite's page cache of a FastCGI process's connection, in KiB (sqlite_db.c): a
 * request reads a few dozen pages, and SQLite's default (2 MiB) would let
 * a long-lived process grow by up to that much over its life, read back
 * from the kernel's page cache all the same.  A CGI process, which reads
 * those few pages once, keeps the default. */
#define DB_PERSISTENT_CACHE_KIB 512

/* Bytes a FastCGI process's restarted WAL is truncated back to (sqlite_db.c,
 * PRAGMA journal_size_limit): twice WAL_CHECKPOINT_FRAMES pages, room for
 * the WAL it reuses, so only a transaction far larger (a purge) shrinks it. */
#define DB_PERSISTENT_WAL_LIMIT (2 * WAL_CHECKPOINT_FRAMES * 4096)

/* Requests a FastCGI process serves before it exits 0 and its process
 * manager starts a new one (CONSENT_FCGI_MAX_REQUESTS): whatever a library
 * keeps or fragments per request is bounded by it.  10,000 requests cost
 * one process start (about 1 ms) every few seconds at full speed; the
 * maximum is large enough for any such purpose and keeps the count a long. */
#define FCGI_MAX_REQUESTS_DEFAULT 10000
#define FCGI_MAX_REQUESTS_MAX 1000000000
/* Requests a FastCGI writer (consent, scripts) takes into one group commit
 * (serve.c): only those already waiting on its socket when the one before
 * is served, so a batch never waits for a request; each holds the write
 * lock a fraction of a millisecond, so a full batch holds it a few. */
#define FCGI_GROUP_MAX 16

/* Answers `config publish` precomputes for one document (regions + 1 times
 * languages): the built-in config needs 4 x 53, a large real one a few
 * hundred; beyond this a document is resolved per request instead of
 * filling the database (each answer is 2 to 4 KiB). */
#define PREPARED_ANSWERS_MAX 4096

/* Regions of one config document.  One per country and territory plus a
 * catch-all is about 250; subdivision regions add some.  The cap keeps the
 * duplicate-id check (quadratic) cheap for any document that fits the
 * publish size (configdoc.c). */
#define REGIONS_MAX 1000
/* consentRules.expiryDays: ten years.  Regulators ask for months (the CNIL
 * 13); anything longer is a typo, not a policy. */
#define EXPIRY_DAYS_MAX 3650
/* The path of a member in a config document's error message
 * ("content.translations.de.banner.title"): real paths are under 100
 * characters; a longer one is cut, never overrun. */
#define CONFIG_PATH_MAX 512
/* Languages of one document offered to the negotiation (resolve.c,
 * prepare.c): the EU has 24 official languages, the built-in config 53
 * (tests/unit/test_texts.c checks it stays within). */
#define LANGS_MAX 64

/* A 400 message that names a field and its rule ("scripts[99].domain must
 * be a host name"): the longest is under 200 bytes. */
#define ERR_MSG_MAX 256

/* A config publish message: it may list every unknown Consent Mode type
 * or category id of the document (configdoc.c), with the allowed types. */
#define CONFIG_ERR_MAX 512

/* Members of one request object: more is no client of ours, and refusing
 * it keeps the duplicate-member check (valid.c, quadratic) cheap. */
#define VALID_MEMBERS_MAX 64
/* scripts timestamp: a Unix time in seconds or milliseconds, up to the end
 * of year 9999 in milliseconds. */
#define TIMESTAMP_MAX 253402300799999.0

/* Longest text inside the brackets of an IPv6 literal (INET6_ADDRSTRLEN - 1). */
#define IPV6_TEXT_MAX 45
/* Longest DNS label (RFC 1035 2.3.4). */
#define LABEL_MAX 63

/* CONSENT_COUNTRY_HEADER names a CGI variable: [A-Z0-9_], at most this long.
 * Real header variables (HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION) are under 40. */
#define GEO_VARNAME_MAX 64
/* Longest REMOTE_ADDR handed to the lookup: a full IPv6 text form is at most
 * 45 characters (INET6_ADDRSTRLEN - 1); the rest leaves room for a zone id. */
#define GEO_ADDR_MAX 64

/* consentctl site names: long enough for any real site or company name,
 * short enough to list on one line. */
#define SITE_NAME_MAX 200
/* The dashboard's sites: domains given with a new site (an operator's
 * handful; more is no form of ours), and what may be typed as one before
 * normalisation drops its scheme, port and path ("https://Example.com/x"). */
#define SITE_DOMAINS_MAX 100
#define DOMAIN_INPUT_MAX 2000
/* consentctl --mau-cap: a billion monthly visitors is beyond any free-tier
 * site. */
#define MAU_CAP_MAX 1000000000LL
/* config publish reads at most this much: the built-in config with its 53
 * languages is about 180 KB printed (test_configdoc.c checks it fits). */
#define CONFIG_FILE_MAX (1024 * 1024)

/* Monthly active user cap of free-tier sites without one of their own
 * (CONTRACT 2), overridable with CONSENT_MAU_CAP. */
#define MAU_CAP_DEFAULT 1000

/* The longest retention consentctl site set --retention-days takes: a
 * hundred years, more than any law asks of consent records. */
#define RETENTION_DAYS_MAX 36500
/* Entries one seal takes at most: the write transaction that marks them
 * stays in the tens of milliseconds; a busier site gets several seals. */
#define SEAL_ENTRIES_MAX 10000
/* How far before the last sealed entry's time the next seal looks for
 * entries not sealed yet: an entry's time is taken before its transaction
 * waits for the write lock (at most DB_BUSY_TIMEOUT_MS), so one committed
 * after a seal is never older than that seal's last entry by more. */
#define SEAL_SLACK_SECONDS 300
/* Entries one purge transaction deletes: a few milliseconds of the write
 * lock, so that the endpoints keep answering during a large purge. */
#define PURGE_BATCH 2000
/* Digests one transaction of the version 4 upgrade writes. */
#define DIGEST_BATCH 5000
/* consentctl report: the longest period, in days.  Ten years is longer
 * than anyone keeps a consent log; the cap keeps the daily series (one
 * point per day, zeros included) and the page small. */
#define REPORT_DAYS_MAX 3660
/* consentctl report: the default period, in days, today included. */
#define REPORT_DAYS_DEFAULT 30

/* The audit trail (ADMIN.md 8, store/store_audit.h).  An actor is an
 * account name (64, ADMIN.md 2) or "consentctl:" and a system user name
 * (32 on Linux, with room to spare). */
#define AUDIT_ACTOR_MAX 128
/* An action: a short dotted name such as "config.publish". */
#define AUDIT_ACTION_MAX 64
/* A record's detail: what changed, never a document (configs are kept
 * whole in configs; the record names the version). */
#define AUDIT_DETAIL_MAX 4096
/* Records one listing gives at most (consentctl audit list, the dashboard). */
#define AUDIT_LIST_MAX 1000

#endif
