/* api.h: one request to the dashboard's API (ADMIN.md 4-6): its checks, its account, its answer. */
#ifndef CONSENT_API_H
#define CONSENT_API_H

#include <stdint.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "admin/api_req.h"
#include "admin/token.h"
#include "http/http.h"
#include "store/store.h"

#define API_USER_MAX 64         /* ADMIN.md 2: 1-64 of a-z0-9._@- */
#define API_REAUTH_SECONDS 300  /* ADMIN.md 4: sensitive actions */
#define API_IDLE_SECONDS 1800   /* session idle limit */
#define API_ABSOLUTE_SECONDS 43200 /* session absolute limit */
#define API_BODY_MAX 65536      /* a request's JSON body */
#define API_BODY_BIG_MAX 1048576 /* configs and previews: a whole document */
#define API_PASSWORD_BYTES_MAX 512 /* a password field longer than this is never hashed */

enum api_method { API_GET, API_POST, API_PUT, API_PATCH, API_DELETE, API_OTHER };

/* A role on a site, ordered: a higher one may do what a lower one may. */
enum api_role { ROLE_NONE = 0, ROLE_VIEWER, ROLE_EDITOR, ROLE_OWNER };

/*
 * One request, filled by the dispatcher (api.c) before a handler runs.
 * seg[] are the path's segments after "/admin/api/" (api_path_split():
 * each 1-255 bytes of [A-Za-z0-9._~@*:-], so a handler may use them as
 * keys or names after its own validation); body is the parsed JSON body (an
 * object) or NULL when the request had none.  For a route that needs a
 * session, user, roles and session_hash are the signed-in account's.
 * The dispatcher owns everything here; a handler keeps nothing of it.
 */
struct api {
	struct http_req req;
	enum api_method method;
	char path[API_PATH_MAX + 1];    /* PATH_INFO, its '/' turned into NULs */
	const char *seg[API_SEGS_MAX];
	size_t nseg;
	cJSON *body;
	struct store *st;
	time_t now;                     /* api_now() at the request's start */
	char user[API_USER_MAX + 1];    /* "" without a session */
	cJSON *roles;                   /* {"KEY":"editor", "*":"owner"}; NULL without a session */
	char session_hash[65];          /* SHA-256 hex of the session token */
	char csrf[TOKEN_LEN + 1];       /* the session's CSRF token */
	time_t authenticated_at;        /* sign-in or the last re-authentication */
	const char *address;            /* REMOTE_ADDR as the server gave it, or NULL */
	int upgraded;                   /* this request upgraded an older database */
	/* The answer's state: api_answer() and friends. */
	int sent;
	int status;
	char extra[512];                /* further header lines, each ending in CRLF */
};

/* The clock of every expiry and throttle decision: time(NULL), except in a
 * build made with -DCONSENT_TEST_CLOCK (tests only, never installed), where
 * CONSENT_TEST_NOW (seconds since the epoch) replaces it when set. */
time_t api_now(void);

/* 1 when the test build's CONSENT_TEST_FAULT names the fault what, so
 * that a test makes that step fail (api_now.c); always 0 in the program
 * installed. */
int api_test_fault(const char *what);

/*
 * The answer, once per request (later calls do nothing): status with body
 * (consumed, may be NULL for no body) and ADMIN.md 4's headers:
 * Content-Type: application/json; charset=utf-8, Cache-Control: no-store,
 * X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer,
 * Content-Security-Policy: default-src 'none'; frame-ancestors 'none',
 * plus a->extra.  Returns 0, or -1 if the output failed.
 */
int api_answer(struct api *a, int status, cJSON *body);
/* {"error": msg} with status. */
int api_error(struct api *a, int status, const char *msg);
/* The request's JSON body checked against the n declared fields
 * (valid_object): 0, or -1 with 400 sent (no body, or the rule it broke). */
struct vfield;
int api_body(struct api *a, const struct vfield *f, size_t n);
/* {"success": true} with status. */
int api_success(struct api *a, int status);
/* store_row_fn: a copy of each row appended to the cJSON array arg. */
int api_rows_append(const cJSON *row, void *arg);
/* 200 {name: rows} when rc is STORE_OK, else 500; rows consumed. */
int api_answer_rows(struct api *a, const char *name, int rc, cJSON *rows);
/* Add a header line to the answer; name and value must be the program's
 * own or validated (no CR, LF or NUL: refused with -1). */
int api_header(struct api *a, const char *name, const char *value);

/* A query parameter as a whole number in [lo, hi]: 1 set (*out), 0
 * absent, -1 malformed. */
int api_query_int(const struct api *a, const char *name, int64_t lo, int64_t hi, int64_t *out);

/*
 * A download's answer (ADMIN.md 4): status 200, ADMIN.md 4's headers but
 * Content-Type, which is type, and Content-Disposition: attachment with
 * filename (the program's own text: [A-Za-z0-9._-]), no Content-Length;
 * the body follows through io_write().  0, or -1 if the output failed.
 */
int api_download(struct api *a, const char *type, const char *filename);

/* The dashboard's own origin, from the server's variables
 * (api_own_origin() of HTTP_HOST, HTTPS, REQUEST_SCHEME): the Origin a
 * request must carry, and the script tag's base (api_sites.c).  0, or
 * -1 (out is then empty). */
int api_origin(char out[ORIGIN_MAX + 1]);

/* The account's role on site key ("*" roles count for every site). */
enum api_role api_role(const struct api *a, const char *key);
/* Whether the account is owner of every site ("*": owner). */
int api_owner_all(const struct api *a);
/*
 * The account needs at least role need on site key: 0 when it has it;
 * else the answer is sent and -1 returned: 404 {"error":"Site not found"}
 * when it has no role there (a site it cannot see does not exist for it),
 * 403 {"error":"Forbidden"} when its role is too low.
 */
int api_need(struct api *a, const char *key, enum api_role need);
/* ADMIN.md 4: 0 when authenticated within API_REAUTH_SECONDS; else 403
 * {"error":"Re-authentication required"} sent and -1. */
int api_need_reauth(struct api *a);

/*
 * Record a change in the audit trail (ADMIN.md 8) as the signed-in
 * account (or "setup" before one exists): site_key NULL for records of no
 * site, detail a JSON object or NULL (not consumed; it must name no
 * visitor), version the config version or -1.  0, or -1 (logged) if it
 * could not be written: the handler then answers 500.
 */
int api_audit(struct api *a, const char *site_key, const char *action, const cJSON *detail,
              int64_t version);

/* A route's handler: reads a, sends one answer (api_answer/api_error). */
typedef void (*api_handler)(struct api *a);

/* The handlers, by file.  api_auth.c: */
void route_setup_get(struct api *a);
void route_setup_post(struct api *a);
void route_session_get(struct api *a);
void route_session_post(struct api *a);
void route_session_delete(struct api *a);
void route_session_reauth(struct api *a);
void route_account_password(struct api *a);
void route_account_sessions(struct api *a);
void route_account_session_end(struct api *a);
void route_account_reset(struct api *a);
/* api_users.c: */
void route_users_list(struct api *a);
void route_users_add(struct api *a);
void route_user_patch(struct api *a);
void route_user_delete(struct api *a);
void route_audit_list(struct api *a);
/* api_sites.c: */
void route_sites_list(struct api *a);
void route_sites_add(struct api *a);
void route_site_get(struct api *a);
void route_site_patch(struct api *a);
void route_site_pause(struct api *a);
void route_site_resume(struct api *a);
void route_domains_list(struct api *a);
void route_domains_add(struct api *a);
void route_domains_remove(struct api *a);
/* api_configs.c: */
void route_configs_list(struct api *a);
void route_configs_publish(struct api *a);
void route_config_get(struct api *a);
void route_preview(struct api *a);
/* api_scripts.c: */
void route_scripts_list(struct api *a);
void route_syncs_start(struct api *a);
void route_sync_get(struct api *a);
void route_rules_get(struct api *a);
void route_rules_publish(struct api *a);
/* api_log.c: */
void route_consents_list(struct api *a);
void route_consents_export(struct api *a);
void route_receipt(struct api *a);
void route_erase(struct api *a);
/* api_proof.c: */
void route_proof(struct api *a);
void route_seal(struct api *a);
void route_verify(struct api *a);
void route_purge(struct api *a);
void route_report(struct api *a);
void route_backup(struct api *a);

/* One request of cgi-bin/admin (serve.h's handle()). */
void api_request(void);

#endif
