#!/bin/bash
# t0815-deploy-apache-fcgid.sh: the API through a real Apache on 127.0.0.1
# (one foreground process, -X) with the three binaries as mod_fcgid
# processes, configured by the shipped apache/ files (CONTRACT 1, 7; spec
# 8).  Four ports: the vhost snippet consent-fcgid.conf as shipped (the
# rate limit is checked there), the same with requests not counted by
# mod_qos (the functional checks), a shared-hosting document root
# configured only by the shipped htaccess-fcgid, and the vhost snippet with
# 3 requests per process (processes retired without a failed request),
# once retired by mod_fcgid and once leaving by themselves (as under an
# .htaccess, where mod_fcgid's limit is the host's).
. "$(dirname "$0")/setup.sh"
server_test
. "$TOP/tests/deploy/lib.sh"

# The servers live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
command -v apache2 >/dev/null 2>&1 ||
	deploy_absent "apache2 is not installed (sh tools/deps.sh as root): Apache mod_fcgid deploy checks not run"
mods=/usr/lib/apache2/modules
[ -f "$mods/mod_fcgid.so" ] ||
	deploy_absent "mod_fcgid is not installed (package libapache2-mod-fcgid): Apache mod_fcgid deploy checks not run"
[ -f "$mods/mod_qos.so" ] ||
	deploy_absent "mod_qos is not installed (package libapache2-mod-qos): Apache mod_fcgid deploy checks not run"
libpcre=$(ldconfig -p 2>/dev/null | awk '/libpcre\.so\.3 /{ print $NF; exit }')
[ -n "$libpcre" ] ||
	deploy_absent "libpcre.so.3 is not installed (package libpcre3), mod_qos cannot load: Apache mod_fcgid deploy checks not run"

# The vhost's shipped lines are consent.conf's but for how the binaries
# run (and fcgid's 413, see there): a change to one that misses the other
# is caught here.
shared_lines() { # FILE: the lines both must have, comments and fcgid's own aside
	grep -vE '^[[:space:]]*(#|$)|Fcgid|CONSENT_FCGI|ScriptAlias|^Alias /functions|Alias /admin/api|SetHandler|^[[:space:]]*Options |SetEnv CONSENT|Error "|^[[:space:]]*(<If |</If>)|Redirect 413|^[[:space:]]*</?IfDefine|^[[:space:]]*</?IfModule' "$1"
}
if diff <(shared_lines "$TOP/apache/consent.conf") <(shared_lines "$TOP/apache/consent-fcgid.conf") > "$T/shared.diff"; then
	ok "consent-fcgid.conf has every access, limit and header line of consent.conf"
else
	notok "consent-fcgid.conf and consent.conf differ beyond how the binaries run: $(head -c 400 "$T/shared.diff" | tr '\n' ' ')"
fi

deploy_init
A=$T/apache
mkdir -p "$A/run/fcgid" "$T/www/functions/v1" "$T/www/sdk"
cp "$db_file" "$T/www/old.db"
# Shared hosting: the binaries uploaded beside the shipped .htaccess, which
# gets the one line an operator edits (the database path) appended.  They
# are copies of their own, so their processes are told apart by /proc.
mkdir -p "$T/cgi-bin-shared"
cp "$T/cgi-bin/config" "$T/cgi-bin/consent" "$T/cgi-bin/scripts" "$T/www/functions/v1/"
cp "$db_file" "$T/www/functions/v1/old.db"
cp "$T/sdk/consent.js" "$T/www/sdk/consent.js"
cp "$TOP/apache/htaccess-sdk" "$T/www/sdk/.htaccess"
{ cat "$TOP/apache/htaccess-fcgid"; echo "SetEnv CONSENT_DB \"$CONSENT_DB\""; } > "$T/www/functions/v1/.htaccess"
ln -s "$TOP/apache/htaccess-data" "$T/www/data/.htaccess"
# The vhost with 3 requests per process runs copies of its own too.
mkdir -p "$T/cgi-bin-recycle" "$T/cgi-bin-selfexit"
cp "$T/cgi-bin/config" "$T/cgi-bin/consent" "$T/cgi-bin/scripts" "$T/cgi-bin-recycle/"
cp "$T/cgi-bin/config" "$T/cgi-bin/consent" "$T/cgi-bin/scripts" "$T/cgi-bin-selfexit/"

apache_user

write_conf() { # LIMITED OPEN SHARED RECYCLE SELFEXIT
	apache_conf consent-fcgid.conf "$@" <<CONF
# What a2enmod fcgid does on Debian, with the folders under this test's.
LoadModule fcgid_module $mods/mod_fcgid.so
FcgidIPCDir "$A/run/fcgid"
FcgidProcessTableFile "$A/run/fcgid_shm"
CONF
	cat >> "$A/httpd.conf" <<CONF

<VirtualHost 127.0.0.1:$4>
	Define CONSENT_CGIBIN $T/cgi-bin-recycle
	Define CONSENT_FCGI_MAX_REQUESTS 3
	Define CONSENT_SYNC normal
	Include "$TOP/apache/consent-fcgid.conf"
	<Directory "$T/cgi-bin-recycle">
		SetEnvIf Request_URI "^" !QS_Limit
	</Directory>
</VirtualHost>

<VirtualHost 127.0.0.1:$5>
	Define CONSENT_CGIBIN $T/cgi-bin-selfexit
	Define CONSENT_FCGI_MAX_REQUESTS 3
	Include "$TOP/apache/consent-fcgid.conf"
	# Test only: mod_fcgid's own limit off, the processes leave by themselves.
	FcgidMaxRequestsPerProcess 0
	<Directory "$T/cgi-bin-selfexit">
		SetEnvIf Request_URI "^" !QS_Limit
	</Directory>
</VirtualHost>
CONF
}

launch apache2 5 3 "Apache mod_fcgid"
limited=${PORTS[0]} open=${PORTS[1]} shared=${PORTS[2]} recycle=${PORTS[3]} selfexit=${PORTS[4]}
ok "$(apache2 -v | sed -n 's/^Server version: //p') with mod_fcgid serves the shipped configs on 127.0.0.1:$limited, :$open, :$shared, :$recycle and :$selfexit"

api_checks "http://127.0.0.1:$open" "apache fcgid vhost"
sdk_checks "http://127.0.0.1:$open" "apache fcgid vhost"
admin_checks "http://127.0.0.1:$open" "apache fcgid vhost"
leak_checks "http://127.0.0.1:$open" "apache fcgid vhost" /old.db
fcgi_checks "http://127.0.0.1:$open" "apache fcgid vhost" "$T/cgi-bin"
api_checks "http://127.0.0.1:$shared" "apache fcgid .htaccess"
leak_checks "http://127.0.0.1:$shared" "apache fcgid .htaccess" /functions/v1/old.db /data/.htaccess
fcgi_checks "http://127.0.0.1:$shared" "apache fcgid .htaccess" "$T/www/functions/v1"

# 3 requests per process: 12 requests in a row all answered, by at least 4
# processes one after the other.  PORT's vhost: mod_fcgid retires them
# (FcgidMaxRequestsPerProcess, as shipped) or they leave by themselves.
recycle_checks() { # PORT BINDIR LABEL
	codes="" seen=""
	for i in $(seq 12); do
		http -H "Origin: $SITE_ORIGIN" GET "http://127.0.0.1:$1/functions/v1/config?site_key=s1"
		codes="$codes$(cat "$T/status") "
		seen="$seen $(fcgi_pids "$2/config" | tr '\n' ' ')"
	done
	check test "$codes" = "$(printf '200 %.0s' $(seq 12))" "apache fcgid: $3: 12 requests in a row all 200 (got $codes)"
	n=$(echo $seen | tr ' ' '\n' | sort -u | wc -l)
	check test "$n" -ge 4 "apache fcgid: $3: 12 requests served by $n processes one after the other (at least 4)"
}
# The setting reaches the processes (FcgidInitialEnv): one request, then
# the environment of the process that served it.
http -H "Origin: $SITE_ORIGIN" GET "http://127.0.0.1:$recycle/functions/v1/config?site_key=s1"
p=$(fcgi_pids "$T/cgi-bin-recycle/config" | head -n 1)
check grep -qxz CONSENT_FCGI_MAX_REQUESTS=3 "/proc/${p:-0}/environ" \
    "apache fcgid: CONSENT_FCGI_MAX_REQUESTS=3 is in the processes' environment"
check grep -qxz CONSENT_SYNC=normal "/proc/${p:-0}/environ" \
    "apache fcgid: Define CONSENT_SYNC normal puts CONSENT_SYNC=normal in the processes' environment"
recycle_checks "$recycle" "$T/cgi-bin-recycle" "3 requests per process, retired by mod_fcgid"
recycle_checks "$selfexit" "$T/cgi-bin-selfexit" "3 requests per process, leaving by themselves"

while_limited() {
	http GET "http://127.0.0.1:$limited/"
	expect_status 429 "apache fcgid: mod_qos refuses a limited client every path, not only the API"
}
rate_limit_checks "http://127.0.0.1:$limited" "apache fcgid" while_limited

log_checks "$A/error.log" "apache fcgid"
