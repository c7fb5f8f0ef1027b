# Consent banner API: three CGI programs, one static library, one admin tool.
#
#   make                 build cgi-bin/{config,consent,scripts,admin}, bin/consentctl,
#                        the browser SDK build/sdk/consent.js and the dashboard's
#                        page build/admin/ (esbuild)
#   make test            build and run the whole suite once
#   make test-fcgi       the suite with the endpoints reached through FastCGI
#   make test-pg         the suite on the PostgreSQL store (build/pg, STORE=postgres)
#   make check           the suite plainly with a short fuzz run (FUZZ_CHECK_SECONDS per
#                        harness), through FastCGI, on PostgreSQL, then under
#                        ASan+UBSan (build/asan/)
#   make check-fcgi-asan the suite through FastCGI under ASan+UBSan
#   make valgrind        the suite with every binary under valgrind (a shared
#                        build, build/valgrind)
#   make serve           demo database + lighttpd on 127.0.0.1:$(PORT)
#                        (SERVER=nginx: nginx and the FastCGI pools)
#   make bench           benchmark against the simplest CGI (bench/), then the dashboard's log (bench/log.sh)
#   make bench-sdk       consent.js size and speed beside two banner scripts
#   make bench-instr     instructions per CGI request of each endpoint (valgrind; BENCH_VARIANTS)
#   make bench-apache    Apache mod_fcgid and mod_proxy_fcgi pools beside its CGI floor (after make bench)
#   make scan            wapiti and sqlmap at the dashboard's API on loopback, signed in
#                        and not (tools/scan-admin.sh; minutes, outside make check)
#   make fuzz            libFuzzer harnesses for $(FUZZ_SECONDS) s each (fuzz/)
#   make fuzz-coverage   lines and branches of each parser the fuzz corpora reach
#   make install         PREFIX, DESTDIR, CGIBIN, DBPATH, MANDIR as below
#   make dist            build/consent-$(VERSION)-linux-x86_64.tar.gz: the release a
#                        shared-hosting customer uploads (tools/dist.sh)
#
# B is the build directory: "." puts the binaries where CONTRACT 1 names them
# (cgi-bin/, bin/); the sanitizer build uses build/asan.

PREFIX  ?= /usr/local
DESTDIR ?=
CGIBIN  ?= $(PREFIX)/lib/consent/cgi-bin
DBPATH  ?= $(PREFIX)/var/lib/consent/consent.db
SHAREDIR ?= $(PREFIX)/share/consent
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
PORT    ?= 8080
VERSION := $(shell cat VERSION)
ESBUILD ?= esbuild
FUZZ_SECONDS ?= 60

B ?= .

CC ?= cc
WARN = -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes \
       -Wmissing-declarations -Wshadow -Wpointer-arith -Wcast-qual \
       -Wwrite-strings -Wformat=2 -Wformat-security -Wvla -Wold-style-definition \
       -Wnull-dereference -Wundef
CFLAGS ?= -O2 -g
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -iquote common -iquote $(B)/gen
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(SANFLAGS)
# Every object and program records the headers it read (-MMD, in
# $(B)/obj/dep/), so a changed header rebuilds exactly what includes it.
DEPDIR     = $(B)/obj/dep
DEPFLAGS   = -MMD -MP -MF $(DEPDIR)/$(subst /,-,$(patsubst $(B)/%,%,$@)).d

# STORE picks the endpoints' store: sqlite (the default: one file, the
# embedded SQLite) or postgres (libpq, for many web hosts: docs/postgres.md).
# Each endpoint links one store and its library;
# consentctl always holds both (obj/consentctl/store_both.o), so that one
# consentctl creates either kind of database and migrates from one to the
# other.  consentctl links shared (libpq, glibc); the endpoints of
# STORE=postgres are fully static with static-libs.sh's lean libpq (above).
STORE ?= sqlite
ifeq ($(STORE),sqlite)
STORE_FLAG = -DSTORE_SQLITE
else ifeq ($(STORE),postgres)
STORE_FLAG = -DSTORE_POSTGRES
else
$(error STORE must be sqlite or postgres, not $(STORE))
endif
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
PQ_LIBS   := $(shell pkg-config --libs libpq 2>/dev/null || echo -lpq)
# Only the PostgreSQL store includes libpq-fe.h (t0060).
CPPFLAGS += $(PQ_CFLAGS)

# STATIC=1 (the default) links fully static when tools/static-libs.sh has
# made its two archives in STATIC_DIR and they are current (made from the
# installed libsqlite3-dev and libcjson-dev; tools/deps.sh runs it): a lean
# SQLite and cJSON, each built from Debian's own source package, beside the
# static libcrypto and libmaxminddb of their -dev packages.  Every request
# is a new process: with no dynamic loader, no shared glibc and no
# relocations at start it costs 0.3 to 0.8 ms less than with cJSON and
# glibc shared, and the lean SQLite 0.1 to 0.4 ms less again
# (docs/performance.md).  Without those archives make says so in one line
# and links SQLite, libcrypto and libmaxminddb from Debian's archives, cJSON
# and glibc shared; with CJSON_A, a libcjson.a of your own, it links fully
# static with Debian's SQLite.  The linker's warnings about getaddrinfo and
# dlopen in static programs do not apply: MMDB_lookup_string resolves
# numeric addresses only, and nothing dlopens.
# STATIC=0 links everything shared; the sanitizer build (SAN=1) always does.
# HASH_EVP=1 hashes through OpenSSL's EVP interface instead of its
# low-level SHA-256 functions (hash.c), as a build against an OpenSSL
# without them does.
STATIC_DIR ?= build/static
ifeq ($(SAN),1)
STATIC = 0
endif
STATIC ?= 1
STATIC_ARCHIVES =
ifeq ($(STATIC),1)
STATIC_CURRENT := $(shell sh tools/static-libs.sh --check '$(STATIC_DIR)' && echo yes)
ifeq ($(STATIC_CURRENT),yes)
STATIC_ARCHIVES = $(STATIC_DIR)/libsqlite3.a $(or $(CJSON_A),$(STATIC_DIR)/libcjson.a)
LIBS = -static $(STATIC_ARCHIVES) -lcrypto -lmaxminddb -lfcgi -lm -lpthread -ldl
else ifneq ($(CJSON_A),)
LIBS = -static -lsqlite3 -lcrypto -lmaxminddb -lfcgi $(CJSON_A) -lm -lpthread -ldl
else
LIBS = -Wl,-Bstatic -lsqlite3 -lcrypto -lmaxminddb -lfcgi -Wl,-Bdynamic -lcjson -lm -lpthread -ldl
ifneq ($(filter-out clean bench bench-sdk fuzz,$(or $(MAKECMDGOALS),all)),)
ifneq ($(STORE),postgres)
$(info make: no current static archives in $(STATIC_DIR) (sh tools/static-libs.sh makes them): not fully static, cJSON and glibc stay shared)
endif
endif
endif
else
LIBS = -Wl,--as-needed -lsqlite3 -lcjson -lcrypto -lmaxminddb -lfcgi -lm
endif
# The endpoints of STORE=postgres link fully static too when static-libs.sh
# has made its lean libpq (libpq.a and the libpgcommon_shlib.a and
# libpgport_shlib.a it needs, from the source of the installed libpq-dev,
# else the newest of its major version on the mirror)
# and its cJSON, both current: libpq and glibc shared cost every request
# some 5 ms at start (docs/performance.md); they then look users up in
# /etc/passwd only (store_pg.c: nss_static).  Without those archives, or
# with STATIC=0, they link libpq, and so the rest, shared.
ifeq ($(STORE),postgres)
PQ_STATIC_CURRENT := $(if $(filter 1,$(STATIC)),$(shell sh tools/static-libs.sh --check '$(STATIC_DIR)' cjson pq && echo yes))
ifeq ($(PQ_STATIC_CURRENT),yes)
STATIC_ARCHIVES = $(STATIC_DIR)/libpq.a $(STATIC_DIR)/libpgcommon_shlib.a $(STATIC_DIR)/libpgport_shlib.a \
                  $(or $(CJSON_A),$(STATIC_DIR)/libcjson.a)
LIBS = -static $(STATIC_ARCHIVES) -lcrypto -lmaxminddb -lfcgi -lm -lpthread -ldl
else
STATIC_ARCHIVES =
LIBS = -Wl,--as-needed -lcjson -lcrypto -lmaxminddb -lfcgi $(PQ_LIBS) -lm
ifeq ($(STATIC),1)
ifneq ($(filter-out clean bench bench-sdk fuzz,$(or $(MAKECMDGOALS),all)),)
$(info make: no current static libpq in $(STATIC_DIR) (sh tools/static-libs.sh makes it when libpq-dev is installed): the PostgreSQL endpoints link libpq and glibc shared)
endif
endif
endif
CPPFLAGS += -DSANDBOX_UNIX_SOCKETS
endif
# consentctl: both stores, linked shared (libpq).  Argon2 (libargon2-dev,
# the dashboard's password hashes, common/admin/password.c) only for the
# programs of the admin layer: consentctl and the unit test of password.c,
# never an endpoint.
ARGON2_LIBS = -largon2
CTL_LIBS = -Wl,--as-needed -lsqlite3 -lcjson -lcrypto -lmaxminddb -lfcgi $(PQ_LIBS) $(ARGON2_LIBS) -lm
ifeq ($(HASH_EVP),1)
CPPFLAGS += -DHASH_EVP
endif

ifeq ($(SAN),1)
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif


# The layers of common/, lowest first: each is a folder, and a folder
# includes only its own headers and those of the folders before it
# (tests/t0060 reads this list with `make print-layers`; README's drawing
# names them in this order).  The store's backends are folders of the
# store layer: store/sqlite/ and store/pg/, each private to itself.
LAYERS     := base input http store config proof endpoint admin
LAYER_DIRS := $(foreach l,$(LAYERS),common/$(l) $(if $(filter store,$(l)),common/store/sqlite common/store/pg))
PG_SRC     := $(sort $(wildcard common/store/pg/*.c))
PG_OBJ     := $(PG_SRC:common/%.c=$(B)/obj/common/%.o) $(B)/obj/gen/schema_pg_data.o
COMMON_SRC := $(filter-out $(PG_SRC),$(sort $(foreach d,$(LAYER_DIRS),$(wildcard $(d)/*.c))))
GEN_SRC    := $(B)/gen/defaults_data.c $(B)/gen/defaults_hash.c $(B)/gen/schema_data.c \
              $(B)/gen/trackers_data.c $(B)/gen/password_list.c
COMMON_OBJ := $(COMMON_SRC:common/%.c=$(B)/obj/common/%.o) $(GEN_SRC:$(B)/gen/%.c=$(B)/obj/gen/%.o) \
              $(if $(filter postgres,$(STORE)),$(PG_OBJ))
LIB        := $(B)/obj/libcommon.a

CGIS       := $(B)/cgi-bin/config $(B)/cgi-bin/consent $(B)/cgi-bin/scripts $(B)/cgi-bin/admin
# The dashboard's program built with a clock the tests set (api_now.c with
# CONSENT_TEST_CLOCK: CONSENT_TEST_NOW), for the expiry and throttling
# tests only: never in cgi-bin/, never installed.
ADMIN_CLOCK := $(B)/tests/admin-clock
CTL        := $(B)/bin/consentctl
CTL_SRC    := $(sort $(wildcard consentctl/*.c))
CTL_OBJ    := $(CTL_SRC:consentctl/%.c=$(B)/obj/consentctl/%.o)
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
UNITS      := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/unit/%)
# The suite's FastCGI client (tests/fcgi-client.c): CONSENT_TEST_MODE=fcgi.
FCGI_CLIENT := $(B)/tests/fcgi-client

all: $(CGIS) $(CTL) $(UNITS) $(FCGI_CLIENT) $(ADMIN_CLOCK) sdk admin

# The browser SDK: one minified IIFE from sdk/index.js, its stylesheet
# minified first and bundled as text (view.js imports it as
# consent-style.css, the alias of build/sdk/style.min.css), SDK_VERSION the
# project's version.  Built once, in the repository's build/sdk/ whatever B
# is (it is the same file for every build of the C programs).  Without
# esbuild the C programs still build; the SDK tests then skip, or fail
# under CI=true.
SDK_OUT := build/sdk/consent.js
SDK_CSS := build/sdk/style.min.css
SDK_SRC := $(wildcard sdk/*.js)

sdk: $(if $(shell command -v $(ESBUILD) 2>/dev/null),$(if $(wildcard sdk/index.js),$(SDK_OUT)),sdk-missing)

$(SDK_CSS): sdk/style.css
	@mkdir -p $(@D)
	$(ESBUILD) sdk/style.css --minify --log-level=warning --outfile=$@

$(SDK_OUT): $(SDK_SRC) $(SDK_CSS) VERSION
	@mkdir -p $(@D)
	$(ESBUILD) sdk/index.js --bundle --minify --format=iife --target=es2020 \
	    --alias:consent-style.css=./$(SDK_CSS) --loader:.css=text \
	    --define:SDK_VERSION='"$(VERSION)"' --log-level=warning --outfile=$@

sdk-missing:
	@echo "make: esbuild is not installed: the SDK (build/sdk/consent.js) was not built (sh tools/deps.sh)"

# The dashboard's page (ADMIN.md 1): admin/index.html, one minified
# script (admin/src/main.js with Preact, htm, qrcode-generator and diff
# from node_modules: npm ci) and one stylesheet, uPlot's own minified
# build as uplot.js (loaded by the statistics view only, admin/src/stats.js),
# plus the preview frame's page (admin/preview.html, frame.js, preview.css), built into
# build/admin/ like the SDK, served at /admin/ as static files.  Without
# esbuild or node_modules the C programs still build; the page's tests
# then skip, or fail under CI=true.
ADMIN_DIR   := build/admin
ADMIN_OUT   := $(addprefix $(ADMIN_DIR)/,index.html admin.js admin.css uplot.js preview.html preview.js preview.css)
ADMIN_SRC   := $(wildcard admin/src/*.js)
ADMIN_READY := $(if $(shell command -v $(ESBUILD) 2>/dev/null),$(wildcard node_modules/preact/package.json))
ADMIN_JS     = $(ESBUILD) $< --bundle --minify --format=iife --target=es2020 --log-level=warning --outfile=$@

admin: $(if $(ADMIN_READY),$(ADMIN_OUT),admin-missing)

$(ADMIN_DIR)/admin.js: admin/src/main.js $(ADMIN_SRC) package-lock.json
	@mkdir -p $(@D)
	$(ADMIN_JS)

$(ADMIN_DIR)/uplot.js: node_modules/uplot/dist/uPlot.iife.min.js package-lock.json
	@mkdir -p $(@D)
	cp $< $@

$(ADMIN_DIR)/preview.js: admin/src/frame.js
	@mkdir -p $(@D)
	$(ADMIN_JS)

$(ADMIN_DIR)/admin.css: admin/style.css
	@mkdir -p $(@D)
	$(ESBUILD) $< --minify --log-level=warning --outfile=$@

$(ADMIN_DIR)/preview.css: admin/preview.css
	@mkdir -p $(@D)
	$(ESBUILD) $< --minify --log-level=warning --outfile=$@

$(ADMIN_DIR)/%.html: admin/%.html
	@mkdir -p $(@D)
	cp $< $@

admin-missing:
	@echo "make: no esbuild or no node_modules/preact (npm ci): the dashboard's page (build/admin/) was not built"

# The page of `consentctl report`: report/report.html with the stylesheet
# (report/report.css and uPlot's) and the script (report/report.js with
# uPlot from node_modules, one minified IIFE) inlined, built once in
# build/report/ like the SDK, then compiled into consentctl
# (report_template, by tools/embed.sh).  Without esbuild or without
# node_modules/uplot (npm ci) everything else still builds: consentctl
# then holds an empty template, and `consentctl report` says so and fails
# (--json works).  The stamp notices which of the two a build had.
REPORT_OUT   := build/report/report.html
REPORT_SRC   := $(wildcard report/*.js report/*.css report/*.html) tools/report-page.sh
REPORT_READY := $(if $(shell command -v $(ESBUILD) 2>/dev/null),$(wildcard node_modules/uplot/package.json))
REPORT_IN    := $(if $(REPORT_READY),$(REPORT_OUT),/dev/null)
REPORT_STAMP  = $(B)/obj/report.stamp

$(REPORT_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(REPORT_IN)' | sh tools/stamp.sh $@
	@[ -n '$(REPORT_READY)' ] || echo "make: no esbuild or no node_modules/uplot (npm ci): consentctl is built without the report page"

$(REPORT_OUT): $(REPORT_SRC) package-lock.json
	@mkdir -p $(@D)
	$(ESBUILD) report/report.js --bundle --minify --format=iife --target=es2020 \
	    --log-level=warning --outfile=$(@D)/report.js
	$(ESBUILD) report/report.css --bundle --minify --log-level=warning --outfile=$(@D)/report.css
	sh tools/report-page.sh report/report.html $(@D)/report.css $(@D)/report.js > $@.tmp && mv $@.tmp $@

$(B)/gen/report_data.c: $(REPORT_IN) $(REPORT_STAMP) tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed.sh report_template $(REPORT_IN) > $@.tmp && mv $@.tmp $@

# What is compiled in, written only when it changes, so that make notices a
# new setting: settings.h holds the values (the default database path,
# included by what uses it), flags the compiler command line and the
# libraries (every object and program depends on it).  `make
# DBPATH=/var/lib/consent/consent.db` after a plain `make` thus rebuilds
# what holds the path, and `make install` ships the path it was given.
SETTINGS_H  = $(B)/gen/settings.h
FLAGS_STAMP = $(B)/obj/flags.stamp

$(SETTINGS_H): FORCE
	@mkdir -p $(@D)
	@printf '/* generated by make from its settings: do not edit */\n#define CONSENT_DB_DEFAULT "%s"\n' \
	    '$(subst ','\'',$(subst ",\",$(subst \,\\,$(DBPATH))))' | sh tools/stamp.sh $@

$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(subst ','\'',$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LIBS) $(STORE_FLAG) $(CTL_LIBS))' | sh tools/stamp.sh $@

$(B)/obj/common/%.o: common/%.c $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# store.c and store_admin.c name the backends of the endpoints (STORE),
# and again, with both, for consentctl (store_both.o, store_admin_both.o).
STORE_DISPATCH = $(B)/obj/common/store/store.o $(B)/obj/common/store/store_admin.o
$(STORE_DISPATCH): $(B)/obj/common/store/%.o: common/store/%.c $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(STORE_FLAG) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/obj/consentctl/%_both.o: common/store/%.c $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) -DSTORE_SQLITE -DSTORE_POSTGRES $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/obj/gen/%.o: $(B)/gen/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# The built-in config: common/config/defaults.json holds the document but its
# texts, common/config/i18n/CODE.json one language's texts each; they are embedded
# apart (a request parses one language, not all), with their hash.  The
# list of languages is a stamp too, so a file removed rebuilds the table.
I18N       := $(sort $(wildcard common/config/i18n/*.json))
I18N_LIST   = $(B)/gen/i18n.list

$(I18N_LIST): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(I18N) | sh tools/stamp.sh $@

$(B)/gen/defaults_data.c: common/config/defaults.json $(I18N) $(I18N_LIST) tools/embed-texts.sh tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed-texts.sh common/config/defaults.json $(I18N) > $@.tmp && mv $@.tmp $@

$(B)/gen/defaults_hash.c: common/config/defaults.json $(I18N) $(I18N_LIST) tools/embed-texts.sh
	@mkdir -p $(@D)
	sh tools/embed-texts.sh --hash common/config/defaults.json $(I18N) > $@.tmp && mv $@.tmp $@

$(B)/gen/schema_data.c: schema.sql tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed.sh schema_data schema.sql > $@.tmp && mv $@.tmp $@

$(B)/gen/schema_pg_data.c: schema_pg.sql tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed.sh schema_pg_data schema_pg.sql > $@.tmp && mv $@.tmp $@

$(B)/gen/trackers_data.c: common/input/trackers.tsv tools/gen-trackers.sh
	@mkdir -p $(@D)
	sh tools/gen-trackers.sh common/input/trackers.tsv > $@.tmp && mv $@.tmp $@

# The common passwords the dashboard refuses, from Debian's python3-zxcvbn
# (tools/gen-passwords.sh says which and why), regenerated when the
# package's list changes.
ZXCVBN_LIST := $(wildcard /usr/lib/python3/dist-packages/zxcvbn/frequency_lists.py)
$(B)/gen/password_list.c: tools/gen-passwords.sh $(ZXCVBN_LIST)
	@mkdir -p $(@D)
	sh tools/gen-passwords.sh > $@.tmp && mv $@.tmp $@

$(LIB): $(COMMON_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/cgi-bin/%: cgi-bin/%.c $(LIB) $(STATIC_ARCHIVES) $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(LIB) $(LIBS)

# The dashboard's program links Argon2 (its password hashes), as consentctl
# does; no endpoint does.
$(B)/cgi-bin/admin: cgi-bin/admin.c $(LIB) $(STATIC_ARCHIVES) $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(LIB) $(ARGON2_LIBS) $(LIBS)

$(B)/obj/tests/api_now_clock.o: common/admin/api_now.c $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) -DCONSENT_TEST_CLOCK $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(ADMIN_CLOCK): cgi-bin/admin.c $(B)/obj/tests/api_now_clock.o $(LIB) $(STATIC_ARCHIVES) $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(B)/obj/tests/api_now_clock.o \
	    $(LIB) $(ARGON2_LIBS) $(LIBS)

$(B)/obj/consentctl/%.o: consentctl/%.c $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# consentctl alone holds the report page (report_data.o, not in the
# library) and both stores (store_both.o and store_admin_both.o, before the
# library, win over its store.o and store_admin.o; the PostgreSQL store's
# objects, which the default library lacks).
CTL_STORE = $(B)/obj/consentctl/store_both.o $(B)/obj/consentctl/store_admin_both.o \
            $(if $(filter postgres,$(STORE)),,$(PG_OBJ))
$(CTL): $(CTL_OBJ) $(CTL_STORE) $(B)/obj/gen/report_data.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(CTL_OBJ) $(CTL_STORE) $(B)/obj/gen/report_data.o $(LIB) $(CTL_LIBS)

$(B)/tests/unit/%: tests/unit/%.c $(LIB) $(STATIC_ARCHIVES) $(SETTINGS_H) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(STORE_FLAG) -iquote tests/unit $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(LIB) \
	    $(if $(filter test_password,$*),$(ARGON2_LIBS)) $(LIBS)

$(FCGI_CLIENT): tests/fcgi-client.c $(FLAGS_STAMP)
	@mkdir -p $(@D) $(DEPDIR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $<

-include $(wildcard $(DEPDIR)/*.d)

# The suite: unit programs and black-box tests, counted by tests/run.sh,
# TEST_JOBS files at once (default one per core; those that measure time,
# memory or load run alone: "# serial:" in tests/run.sh).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
RUN_TESTS = sh tests/run.sh -j $(TEST_JOBS)
test: all
	BUILD=$(abspath $(B)) $(RUN_TESTS)

# The same suite with every black-box request sent through FastCGI to
# long-lived processes (tests/setup.sh, tests/fcgi-client.c).
test-fcgi: all
	BUILD=$(abspath $(B)) CONSENT_TEST_MODE=fcgi $(RUN_TESTS)

# The same suite on the PostgreSQL store: the endpoints built with
# STORE=postgres (build/pg), a private cluster and pgbouncer started by
# tests/run.sh (tests/pg.sh), a fresh database for each test file.
test-pg:
	$(MAKE) B=build/pg STORE=postgres all
	$(MAKE) B=build/valgrind-pg STATIC=0 STORE=postgres $(CGIS:$(B)/%=build/valgrind-pg/%)
	BUILD=$(abspath build/pg) VALGRIND_BUILD=$(abspath build/valgrind-pg) \
	CONSENT_TEST_STORE=postgres $(RUN_TESTS)

# check: the suite, a short fuzzing run of every harness
# (FUZZ_CHECK_SECONDS each, two at a time, from the committed corpora:
# t0950), the suite through FastCGI, on PostgreSQL, then again under ASan
# and UBSan.  The sanitized suite through FastCGI is check-fcgi-asan,
# apart: it would add as much as the sanitized pass itself.  Every build
# and every pass uses TEST_JOBS cores (make check needs no -j of its own),
# and each pass runs TEST_JOBS files at once, the files marked serial last
# and alone (tests/run.sh).  CI's budget for check is 35 minutes on 2
# cores: 36.7 minutes measured before the serial files went last, the
# builds got -j and the fuzzing went from 60 to 30 s a harness; 25 s since
# there are eleven harnesses (the differential prepared and proof joined
# the nine); 15 s since the three passes took 27.5 minutes (2026-11-28,
# plain 13.5 with t0950 at 166 s): every harness starts from its
# committed, minimised corpus, so the short run replays what the long
# runs found and adds little of its own.
FUZZ_CHECK_SECONDS ?= 15
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# build/valgrind: the three programs linked shared, for t0960's valgrind run
# over one FastCGI process (memcheck cannot follow a static malloc).
VG_CGIS = $(CGIS:$(B)/%=build/valgrind/%)
check:
	$(MAKE) -j$(TEST_JOBS) all
	$(MAKE) -j$(TEST_JOBS) B=build/valgrind STATIC=0 $(VG_CGIS)
	BUILD=$(abspath $(B)) VALGRIND_BUILD=$(abspath build/valgrind) \
	FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) $(RUN_TESTS)
	BUILD=$(abspath $(B)) CONSENT_TEST_MODE=fcgi $(RUN_TESTS)
	$(MAKE) -j$(TEST_JOBS) B=build/pg STORE=postgres all
	$(MAKE) -j$(TEST_JOBS) B=build/valgrind-pg STATIC=0 STORE=postgres $(CGIS:$(B)/%=build/valgrind-pg/%)
	BUILD=$(abspath build/pg) VALGRIND_BUILD=$(abspath build/valgrind-pg) \
	CONSENT_TEST_STORE=postgres $(RUN_TESTS)
	$(MAKE) -j$(TEST_JOBS) B=build/asan SAN=1 all
	BUILD=$(abspath build/asan) SANITIZED=1 $(SAN_ENV) $(RUN_TESTS)

check-fcgi-asan:
	$(MAKE) B=build/asan SAN=1 all
	BUILD=$(abspath build/asan) SANITIZED=1 CONSENT_TEST_MODE=fcgi $(SAN_ENV) $(RUN_TESTS)

# valgrind: a build linked shared (build/valgrind, STATIC=0): memcheck finds
# heap errors and leaks by replacing malloc, which it cannot do in a fully
# static program.
valgrind:
	$(MAKE) B=build/valgrind STATIC=0 all
	BUILD=$(abspath build/valgrind) VALGRIND=1 $(RUN_TESTS)

serve: all
	sh tools/serve.sh $(PORT)

bench:
	sh bench/run.sh
	bash bench/log.sh

bench-log:
	bash bench/log.sh

bench-instr: all
	sh bench/instr.sh

bench-sdk: sdk
	sh bench/sdk.sh

bench-apache:
	sh bench/apache.sh

scan: all
	bash tools/scan-admin.sh

fuzz:
	sh fuzz/run.sh $(FUZZ_SECONDS)

# What the fuzzing corpora reach of each parser: lines and branches per
# harness and target file, and the lines never reached (fuzz/coverage.sh).
fuzz-coverage:
	sh fuzz/coverage.sh

install: $(CGIS) $(CTL) sdk admin
	install -d $(DESTDIR)$(CGIBIN) $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHAREDIR)
	if [ -f $(SDK_OUT) ]; then install -d $(DESTDIR)$(SHAREDIR)/sdk && \
	    install -m 0644 $(SDK_OUT) $(DESTDIR)$(SHAREDIR)/sdk/; fi
	if [ -f $(ADMIN_DIR)/admin.js ]; then install -d $(DESTDIR)$(SHAREDIR)/admin && \
	    install -m 0644 $(ADMIN_OUT) $(DESTDIR)$(SHAREDIR)/admin/; fi
	install -d $(DESTDIR)$(dir $(DBPATH))
	install -m 0755 $(CGIS) $(DESTDIR)$(CGIBIN)/
	install -m 0755 $(CTL) $(DESTDIR)$(BINDIR)/
	install -m 0644 schema.sql schema_pg.sql $(DESTDIR)$(SHAREDIR)/
	cp -R apache lighttpd nginx pgbouncer $(DESTDIR)$(SHAREDIR)/
	install -d $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 man/consent-log.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 man/consent.8 man/consentctl.8 $(DESTDIR)$(MANDIR)/man8/

# dist: the release archive (tools/dist.sh says what it holds), from a
# build of its own in build/dist: the four programs and consentctl fully
# static (the archives of tools/static-libs.sh; consentctl with the lean
# libpq and Debian's static libargon2), the database ../data/consent.db
# from the programs' folder (ADMIN.md 9: a release's programs, run as CGI
# from cgi-bin/, use data/ beside it without a setting), SQLite.
# SOURCE_DATE_EPOCH (default the last commit's time) is every file's mtime:
# the same tree, the same bytes (t0830).
DIST_OUT    ?= build
DIST_DBPATH ?= ../data/consent.db
DIST_B       = build/dist
DIST_CTL_LIBS = -static $(addprefix $(STATIC_DIR)/,libpq.a libpgcommon_shlib.a libpgport_shlib.a \
                libsqlite3.a libcjson.a) -largon2 -lcrypto -lmaxminddb -lfcgi -lm -lpthread -ldl
DIST_PROGS   = $(addprefix $(DIST_B)/,cgi-bin/config cgi-bin/consent cgi-bin/scripts cgi-bin/admin bin/consentctl)
DIST_TGZ     = $(DIST_OUT)/consent-$(VERSION)-linux-x86_64.tar.gz
dist: sdk admin
	$(MAKE) B=$(DIST_B) STATIC=1 STORE=sqlite DBPATH='$(DIST_DBPATH)' CTL_LIBS='$(DIST_CTL_LIBS)' $(DIST_PROGS)
	$(MAKE) $(DIST_TGZ)

$(DIST_TGZ): $(DIST_PROGS) $(SDK_OUT) $(ADMIN_OUT) $(wildcard dist/*) apache/htaccess-data tools/dist.sh VERSION
	sh tools/dist.sh $(VERSION) $(DIST_B) $(DIST_OUT)

clean:
	rm -rf obj gen build $(CGIS) $(CTL) $(UNITS)

print-layers:
	@echo $(LAYERS)

.PHONY: print-layers all sdk sdk-missing admin admin-missing test test-fcgi test-pg check check-fcgi-asan valgrind serve bench bench-log bench-instr bench-sdk bench-apache scan fuzz fuzz-coverage install dist clean FORCE
FORCE:
.SECONDARY: $(GEN_SRC) $(B)/gen/report_data.c $(B)/gen/schema_pg_data.c
