#!/bin/bash
# t0810-deploy-apache.sh: the API through a real Apache on 127.0.0.1 (one
# foreground process, -X) configured by the shipped apache/ files
# (CONTRACT 1, 7; spec 8).  Three ports: the vhost snippet as shipped (the
# rate limit is checked there), the same snippet with the request not
# counted by mod_qos (the functional checks), and a shared-hosting document
# root configured only by the shipped htaccess files.
. "$(dirname "$0")/setup.sh"
server_test
. "$TOP/tests/deploy/lib.sh"

# The servers live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
if ! command -v apache2 >/dev/null 2>&1; then
	deploy_absent "apache2 is not installed (sh tools/deps.sh as root): Apache deploy checks not run"
fi
mods=/usr/lib/apache2/modules
if [ ! -f "$mods/mod_qos.so" ]; then
	deploy_absent "mod_qos is not installed (package libapache2-mod-qos): Apache deploy checks not run"
fi
libpcre=$(ldconfig -p 2>/dev/null | awk '/libpcre\.so\.3 /{ print $NF; exit }')
if [ -z "$libpcre" ]; then
	deploy_absent "libpcre.so.3 is not installed (package libpcre3), mod_qos cannot load: Apache deploy checks not run"
fi

deploy_init
A=$T/apache
mkdir -p "$A/run" "$T/www/functions/v1"
# The vhost: database copies in the document root, refused by their suffix.
cp "$db_file" "$T/www/old.db"
cp "$db_file" "$T/www/old.db-wal"
# Shared hosting: the binaries uploaded beside the shipped .htaccess, which
# gets the one line an operator edits (the database path) appended; the
# database folder guarded by the shipped htaccess-data as it is.
cp "$T/cgi-bin/config" "$T/cgi-bin/consent" "$T/cgi-bin/scripts" "$T/www/functions/v1/"
cp "$db_file" "$T/www/functions/v1/old.db"
mkdir -p "$T/www/sdk"
cp "$T/sdk/consent.js" "$T/www/sdk/consent.js"
cp "$TOP/apache/htaccess-sdk" "$T/www/sdk/.htaccess"
{ cat "$TOP/apache/htaccess"; echo "SetEnv CONSENT_DB \"$CONSENT_DB\""; } > "$T/www/functions/v1/.htaccess"
ln -s "$TOP/apache/htaccess-data" "$T/www/data/.htaccess"

# Run as root (CI): Apache serves as an unprivileged user, who must write
# the database folder and the cgid socket's.
apache_user

write_conf() { # LIMITED OPEN SHARED
	apache_conf consent.conf "$@" <<CONF
<IfModule cgid_module>
	ScriptSock "$A/run/cgisock"
</IfModule>
CONF
}

launch apache2 3 3 "Apache"
limited=${PORTS[0]} open=${PORTS[1]} shared=${PORTS[2]}
ok "$(apache2 -v | sed -n 's/^Server version: //p') serves the shipped configs on 127.0.0.1:$limited, :$open and :$shared"

api_checks "http://127.0.0.1:$open" "apache vhost"
sdk_checks "http://127.0.0.1:$open" "apache vhost"
admin_checks "http://127.0.0.1:$open" "apache vhost"
leak_checks "http://127.0.0.1:$open" "apache vhost" /old.db /old.db-wal
api_checks "http://127.0.0.1:$shared" "apache .htaccess"
sdk_checks "http://127.0.0.1:$shared" "apache .htaccess (htaccess-sdk)"
leak_checks "http://127.0.0.1:$shared" "apache .htaccess" /functions/v1/old.db /data/.htaccess

# mod_qos refuses a limited client every request to the server (documented
# in docs/deploy.md); the 429 it sends has the headers consent.conf adds.
while_limited() {
	http GET "http://127.0.0.1:$limited/"
	expect_status 429 "apache: mod_qos refuses a limited client every path, not only the API"
	http GET "http://127.0.0.1:$limited/sdk/consent.js"
	expect_status 429 "apache: ... the SDK too (docs/deploy.md), though it is not counted"
}
rate_limit_checks "http://127.0.0.1:$limited" "apache" while_limited

log_checks "$A/error.log" "apache"
