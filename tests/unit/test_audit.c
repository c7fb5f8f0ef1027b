/* test_audit.c: the audit record's digest and the chains' names (store_audit.c, consent-log(5)). */
#include <stdio.h>
#include <string.h>

#include "store/store_audit.h"
#include "unit.h"

/* The digest of the record in JSON text, or "" when it failed. */
static void
digest_of(const char *json, char out[65])
{
	cJSON *row = cJSON_Parse(json);

	if (row == NULL || store_audit_digest(row, out) != 0)
		out[0] = '\0';
	cJSON_Delete(row);
}

int
main(void)
{
	static const char example[] =
	    "{\"id\":7,\"at\":\"2026-11-24T10:00:00.000Z\",\"actor\":\"consentctl:alice\","
	    "\"site_key\":\"shop\",\"action\":\"config.publish\",\"detail\":null,\"version\":3}";
	char a[65], b[65], chain[STORE_AUDIT_CHAIN_MAX];

	digest_of(example, a);
	CHECK_STR(a, "4aba4f00b0ef95c97697977490a6ba4a104e9121a642f62e4d81b3d127aaa67c",
	    "the record of consent-log(5)'s example has the digest it states");
	digest_of("{\"id\":7,\"at\":\"2026-11-24T10:00:00.000Z\",\"actor\":\"consentctl:alice\","
	    "\"site_key\":\"shop\",\"action\":\"config.publish\",\"version\":3}", b);
	CHECK_STR(b, a, "an absent member is none, as null is");
	digest_of("{\"id\":8,\"at\":\"2026-11-24T10:00:00.000Z\",\"actor\":\"consentctl:alice\","
	    "\"site_key\":\"shop\",\"action\":\"config.publish\",\"version\":3}", b);
	CHECK(strlen(b) == 64 && strcmp(a, b) != 0, "the id is covered (records cannot change places)");
	digest_of("{\"id\":7,\"at\":\"2026-11-24T10:00:00.000Z\",\"actor\":\"consentctl:alice\","
	    "\"site_key\":null,\"action\":\"config.publish\",\"version\":3}", b);
	CHECK(strlen(b) == 64 && strcmp(a, b) != 0, "the site is covered, none differs from a key");
	digest_of("{\"id\":7,\"at\":\"2026-11-24T10:00:00.000Z\",\"actor\":\"consentctl:alice\","
	    "\"site_key\":\"shop\",\"action\":\"config.publish\",\"version\":0}", b);
	CHECK(strlen(b) == 64 && strcmp(a, b) != 0, "the version is covered");
	digest_of("{\"id\":7,\"at\":\"2026-11-24T10:00:00.000Z\",\"actor\":\"consentctl:alice\","
	    "\"site_key\":\"shop\",\"action\":\"config.publish\",\"detail\":\"{}\",\"version\":3}", b);
	CHECK(strlen(b) == 64 && strcmp(a, b) != 0, "the detail is covered, {} differs from none");

	store_audit_chain("shop", chain);
	CHECK_STR(chain, "audit:shop", "a site's chain is named audit:KEY");
	store_audit_chain(NULL, chain);
	CHECK_STR(chain, "audit", "the chain of no site is named audit");
	UNIT_DONE();
}
