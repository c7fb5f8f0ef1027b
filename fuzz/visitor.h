/* visitor.h: the visitor the config and prepared harnesses build, as
 * cgi-bin/config does: region and lang from the query string. */
#ifndef CONSENT_FUZZ_VISITOR_H
#define CONSENT_FUZZ_VISITOR_H

#include <string.h>

#include "base/limits.h"
#include "config/resolve.h"
#include "http/http.h"

/* v cleared, then its region and lang from q (each written to the buffer
 * given, which v then points into), when present and not empty. */
static inline void
fuzz_visitor_query(const char *q, struct visitor *v, char region[TOKEN_MAX + 1],
                   char lang[LANG_TAG_MAX + 1])
{
	memset(v, 0, sizeof(*v));
	if (http_query_param(q, "region", region, TOKEN_MAX + 1) == HTTP_PARAM_FOUND &&
	    region[0] != '\0')
		v->region = region;
	if (http_query_param(q, "lang", lang, LANG_TAG_MAX + 1) == HTTP_PARAM_FOUND &&
	    lang[0] != '\0')
		v->lang = lang;
}

#endif
