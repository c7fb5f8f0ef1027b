/* test_uuid.c: uuid_v4() and uuid_canonical() (RFC 9562; scripts sync_id). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "base/uuid.h"

static char out[UUID_LEN + 1];

/* What uuid_canonical() gives, or "(refused)"; a refusal must clear out. */
static const char *
canon(const char *in)
{
	if (uuid_canonical(in, out) != 0)
		return out[0] == '\0' ? "(refused)" : "(refused, out not cleared)";
	return out;
}

static void
test_v4(void)
{
	char a[UUID_LEN + 1], b[UUID_LEN + 1], c[UUID_LEN + 1];
	int i, shape = 1, version = 1, variant = 1;

	CHECK(uuid_v4(a) == 0 && uuid_v4(b) == 0, "uuid_v4 succeeds");
	CHECK(strlen(a) == UUID_LEN, "36 characters");
	CHECK(strcmp(a, b) != 0, "two calls differ");
	CHECK_STR(canon(a), a, "already canonical (lower case, 8-4-4-4-12)");
	for (i = 0; i < 1000; i++) {
		if (uuid_v4(c) != 0 || uuid_canonical(c, out) != 0 || strcmp(c, out) != 0)
			shape = 0;
		if (c[14] != '4')
			version = 0;
		if (strchr("89ab", c[19]) == NULL)
			variant = 0;
	}
	CHECK(shape, "1000 ids are canonical");
	CHECK(version, "version nibble is 4");
	CHECK(variant, "variant bits are 10 (8, 9, a or b)");
}

static void
test_canonical(void)
{
	CHECK_STR(canon("123e4567-e89b-42d3-a456-426614174000"),
	    "123e4567-e89b-42d3-a456-426614174000", "lower case kept");
	CHECK_STR(canon("123E4567-E89B-42D3-A456-426614174000"),
	    "123e4567-e89b-42d3-a456-426614174000", "upper case lowered");
	CHECK_STR(canon("123e4567-E89b-12d3-a456-426614174000"),
	    "123e4567-e89b-12d3-a456-426614174000", "version 1 and mixed case");
	CHECK_STR(canon("00000000-0000-0000-0000-000000000000"),
	    "00000000-0000-0000-0000-000000000000", "nil UUID");
	CHECK_STR(canon("ffffffff-ffff-ffff-ffff-ffffffffffff"),
	    "ffffffff-ffff-ffff-ffff-ffffffffffff", "max UUID");

	CHECK_STR(canon(NULL), "(refused)", "NULL");
	CHECK_STR(canon(""), "(refused)", "empty");
	CHECK_STR(canon("{123e4567-e89b-42d3-a456-426614174000}"), "(refused)", "braces");
	CHECK_STR(canon("urn:uuid:123e4567-e89b-42d3-a456-426614174000"), "(refused)",
	    "urn:uuid: prefix");
	CHECK_STR(canon("123e4567e89b42d3a456426614174000"), "(refused)", "no hyphens");
	CHECK_STR(canon("123e4567-e89b-42d3-a456-42661417400"), "(refused)", "one short");
	CHECK_STR(canon("123e4567-e89b-42d3-a456-4266141740000"), "(refused)", "one long");
	CHECK_STR(canon("123e4567-e89b-42d3-a456"), "(refused)", "short form");
	CHECK_STR(canon(" 123e4567-e89b-42d3-a456-426614174000"), "(refused)",
	    "leading space");
	CHECK_STR(canon("123e4567-e89b-42d3-a456-426614174000 "), "(refused)",
	    "trailing space");
	CHECK_STR(canon("123e4567-e89b-42d3-a456-426614174000\n"), "(refused)",
	    "trailing newline");
	CHECK_STR(canon("123e4567-e89b-42d3-a456_426614174000"), "(refused)",
	    "underscore for hyphen");
	CHECK_STR(canon("123e4567-e89b-42d3-a4567426614174000"), "(refused)",
	    "hyphen moved");
	CHECK_STR(canon("123e4567-e89b-42d3-a456-42661417400g"), "(refused)", "non-hex g");
	CHECK_STR(canon("123e4567-e89b-42d3-a456-4266141740\xc3\xa9"), "(refused)",
	    "non-ASCII");
	CHECK_STR(canon("-23e4567-e89b-42d3-a456-426614174000"), "(refused)",
	    "hyphen in a hex position");
}

int
main(void)
{
	test_v4();
	test_canonical();
	UNIT_DONE();
}
