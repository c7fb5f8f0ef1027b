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
 * (store.c): every process that opens the database first reads the whole
 * WAL, so it is kept to a few writes' worth (a consent adds about 5 frames);
 * 16 to 64 measured alike, 1 (every commit) and 256 slower. */
#define WAL_CHECKPOINT_FRAMES 32

/* Answers `config publish` precomputes for one document (regions + 1 times
 * languages): the built-in config needs 5 x 8, a large real one a few
 * hundred; beyond this a document is resolved per request instead of
 * filling the database (each answer is 2 to 4 KiB). */
#define PREPARED_ANSWERS_MAX 4096

/* Monthly active user cap of free-tier sites without one of their own
 * (CONTRACT 2), overridable with CONSENT_MAU_CAP. */
#define MAU_CAP_DEFAULT 1000

#endif
