/* prepare.h: the one config path: what publish prepares and what every endpoint reads of a site's config. */
#ifndef CONSENT_PREPARE_H
#define CONSENT_PREPARE_H

/*
 * A published document is resolved at publish time for every region and
 * language (prepare_document()), so that a config request parses no
 * document: it reads the skeleton, picks a region and a language on it, and
 * sends the stored answer.  What was prepared is stamped with
 * prepare_stamp() (RESOLVE_VERSION and a hash of the built-in defaults);
 * answers of another stamp are ignored and the document resolved afresh,
 * so an upgrade never serves an older build's texts.  Every endpoint goes
 * through prepare_site(); the config endpoint then answers with
 * prepare_answer(), its one reply path.
 */

#include <stddef.h>

#include <cjson/cJSON.h>

#include "config/resolve.h"
#include "store/store.h"

/* This build's stamp, "r<RESOLVE_VERSION>-<16 hex digits of the SHA-256 of
 * the built-in config (defaults_hash())>" (static). */
const char *prepare_stamp(void);

/* What is prepared from one document: rows for the store (store.h), and
 * the strings they point to, owned here. */
struct prepared {
	struct store_prepared rows;
	struct store_answer *a;
	char **owned;
	size_t nowned;
};

/* What prepare_document() did. */
enum prepare_result {
	PREPARE_NOMEM = -1,        /* memory ran out (reported) */
	PREPARE_OK = 0,            /* p filled */
	PREPARE_PER_REQUEST = 1    /* not worth preparing: p empty, the document
	                            * is resolved per request */
};

/*
 * Prepare a validated document.  Not worth preparing: more than
 * PREPARED_ANSWERS_MAX answers, or a region without an id of its own.
 * Release with prepare_free() in every case.
 */
enum prepare_result prepare_document(const cJSON *doc, struct prepared *p);
void prepare_free(struct prepared *p);

/*
 * What a request reads of a site's config: doc holds what picks a region
 * and a language and every category id, the prepared skeleton when it
 * carries this build's stamp (prepared 1), else the published document,
 * else the built-in defaults without their texts (defaults_skeleton(),
 * prepared 0).
 */
struct served {
	cJSON *doc;
	int prepared;
	cJSON *resolved;   /* a document prepare_answer() parsed (or the built-in one
	                      with the texts it answers in), kept for its answer */
};

/* Fill sv for site (store_site_get()): 0, or -1 when what is stored does not
 * parse or memory runs out (reported).  Release with prepare_site_free(). */
int prepare_site(const struct site *site, struct served *sv);
void prepare_site_free(struct served *sv);

/*
 * The config endpoint's 200 body (spec 4.1) for visitor v: the stored
 * answer for the region and language picked on the skeleton, or, when the
 * site has none of this build (not prepared, stale, or the row missing),
 * the document resolved now.  The two are byte for byte the same.  With
 * nothing published, the built-in document holding the texts of the
 * language picked and of English, the only ones parsed, resolved now; its
 * config.content.translations holds those two (docs/proof.md: the built-in
 * texts).  New object (it may reference sv: delete it before
 * prepare_site_free()), or NULL on failure (reported).
 */
cJSON *prepare_answer(struct store *st, const struct site *site, struct served *sv,
                      const struct visitor *v);

#endif
