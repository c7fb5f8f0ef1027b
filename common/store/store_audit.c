/* store_audit.c: what both backends' audit trails share: the record's checks and digest, the chains' names. */
#include <stdio.h>
#include <string.h>

#include "base/canon.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/store_ops.h"

const struct store_column store_audit_record_columns[] = { AUDIT_RECORD_COLUMN_LIST };
const size_t store_audit_record_ncolumns = nitems(store_audit_record_columns);

/* 1-max bytes without control characters. */
static int
short_text(const char *s, size_t max)
{
	size_t n = s != NULL ? strlen(s) : 0;

	if (n == 0 || n > max)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

int
store_audit_check(const char *actor, const char *action, const char *detail_json)
{
	cJSON *d;
	int object;

	if (!short_text(actor, AUDIT_ACTOR_MAX) || !short_text(action, AUDIT_ACTION_MAX)) {
		log_error("audit record: actor or action empty, too long or with control characters");
		return -1;
	}
	if (detail_json == NULL)
		return 0;
	if (strlen(detail_json) > AUDIT_DETAIL_MAX) {
		log_error("audit record %s: its detail is over %d bytes", action, AUDIT_DETAIL_MAX);
		return -1;
	}
	d = cJSON_Parse(detail_json);
	object = cJSON_IsObject(d);
	cJSON_Delete(d);
	if (!object) {
		log_error("audit record %s: its detail is not a JSON object", action);
		return -1;
	}
	return 0;
}

/*
 * consent-log(5), "consent-audit/1": the magic line, then id, at, actor,
 * site_key, action, detail (the stored JSON text), version, each a field
 * of base/canon.h's encoding (none: "-").
 */
int
store_audit_record_digest(const struct store_audit_record *r, char out[65])
{
	struct canon b = { 0 };

	canon_str(&b, "consent-audit/1\n");
	canon_number(&b, "id", (double)r->id);
	canon_text(&b, "at", r->at);
	canon_text(&b, "actor", r->actor);
	canon_text(&b, "site_key", r->site_key);
	canon_text(&b, "action", r->action);
	canon_text(&b, "detail", r->detail);
	if (r->version >= 0)
		canon_number(&b, "version", (double)r->version);
	else
		canon_null(&b, "version");
	return canon_sha256(&b, out);
}

/* A member of a row as text, NULL when absent or not a string. */
static const char *
text_of(const cJSON *row, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int
store_audit_digest(const cJSON *row, char out[65])
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(row, "id");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(row, "version");
	struct store_audit_record r = {
		cJSON_IsNumber(id) ? (int64_t)id->valuedouble : 0,
		text_of(row, "at"), text_of(row, "actor"), text_of(row, "site_key"),
		text_of(row, "action"), text_of(row, "detail"),
		cJSON_IsNumber(version) ? (int64_t)version->valuedouble : -1,
	};

	return store_audit_record_digest(&r, out);
}

void
store_audit_chain(const char *site_key, char out[STORE_AUDIT_CHAIN_MAX])
{
	if (site_key == NULL)
		snprintf(out, STORE_AUDIT_CHAIN_MAX, "audit");
	else
		snprintf(out, STORE_AUDIT_CHAIN_MAX, "audit:%.64s", site_key);
}

const char *
store_audit_chain_key(const char *chain)
{
	return strncmp(chain, "audit:", 6) == 0 ? chain + 6 : NULL;
}
