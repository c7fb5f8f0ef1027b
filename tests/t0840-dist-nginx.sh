#!/bin/bash
# t0840-dist-nginx.sh: the release archive's contents on a VPS with nginx
# (issue 27): make dist's folder unpacked as it is, its four programs run
# as FastCGI pools by apache/consent-fcgi@.service's command line (CGIBIN
# the release's cgi-bin/, CONSENT_DB its data/consent.db), and a private
# nginx (Debian's) with nginx/consent.conf as shipped serving its
# consent.js as the SDK and its admin/ as the dashboard.  The API, the
# SDK and the dashboard (its page and its API's first run) answer; the
# release's programs answer byte for byte what the CGI build does and a
# killed process is replaced.  The rate limit is in dry-run mode here (its
# answers are t0825's).
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/deploy/lib.sh"
. "$TOP/tests/deploy/dist.sh"

PATH=$PATH:/usr/sbin:/sbin
what="the release's nginx checks not run"
command -v nginx >/dev/null 2>&1 || deploy_absent "nginx is not installed (sh tools/deps.sh as root): $what"
for t in spawn-fcgi multiwatch; do
	command -v $t >/dev/null 2>&1 || deploy_absent "$t is not installed (package $t): $what"
done
dist_archive

chmod 755 "$T"
mkdir -p "$T/srv" "$T/www" "$T/sdk" "$T/cgi-bin"
tar -xzf "$DIST_TGZ" -C "$T/srv"
R=$T/srv/$DIST_NAME
echo '<p>static</p>' > "$T/www/index.html"
cp "$R/consent.js" "$T/sdk/consent.js"
# admin_checks runs the dashboard's first run when $T/cgi-bin/admin is
# there: the release's.
ln -s "$R/cgi-bin/admin" "$T/cgi-bin/admin"

export CONSENT_DB=$R/data/consent.db
as_user=""
N=$T/nginx
mkdir -p "$N/run" "$N/tmp"
if [ "$(id -u)" -eq 0 ]; then
	g=nogroup
	getent group nogroup >/dev/null 2>&1 || g=nobody
	as_user="setpriv --reuid nobody --regid $g --clear-groups"
	chown -R "nobody:$g" "$R/data" "$N"
fi
# consentctl as the pools' user, so that the database's journals stay theirs.
ctl() { ${as_user:-} "$BUILD/bin/consentctl" "$@"; }
ctl init > /dev/null || { notok "consentctl init $CONSENT_DB"; exit 1; }
site s1
deploy_bodies

# The four pools as the unit starts them, on the release's programs.
unit=$TOP/apache/consent-fcgi@.service
procs=$(sed -n 's/^Environment=PROCS=//p' "$unit")
for e in config consent scripts admin; do
	FCGI_POOL_AS=$as_user fcgi_pool_start "$unit" "$e" RUN="$N/run" CGIBIN="$R/cgi-bin" \
	    CONSENT_DB="$CONSENT_DB" >> "$N/pools.log" 2>&1
	serve_pid "$FCGI_POOL_PID"
	for i in $(seq 50); do
		[ -S "$N/run/$e.sock" ] && [ "$(fcgi_pids "$R/cgi-bin/$e" | wc -l)" -ge "$procs" ] && break
		sleep 0.1
	done
	[ -S "$N/run/$e.sock" ] || { notok "the $e pool on the release's program did not start: $(tail -n 3 "$N/pools.log" | tr '\n' ' ')"; exit 1; }
done
ok "the unit's command line runs $procs processes of each of the release's four programs"

write_conf() { # PORT
	{
		echo 'daemon off;'
		nginx_http_block
		cat <<CONF
	server {
		listen 127.0.0.1:$1;
		root $T/www;
		# The release's folder as it was unpacked.
		set \$consent_fcgi_run $N/run;
		set \$consent_sdk $R;
		set \$consent_admin $R/admin;
		# Test only: the limit counts but refuses nothing (t0825 checks it).
		limit_req_dry_run on;
		include $TOP/nginx/consent.conf;
	}
}
CONF
	} > "$N/nginx.conf"
}
launch nginx 1 1 "nginx (release)"
b=http://127.0.0.1:${PORTS[0]}
ok "$(nginx -v 2>&1 | sed 's/^nginx version: //') serves the release's folder with nginx/consent.conf on $b"

api_checks "$b" "nginx, release"
sdk_checks "$b" "nginx, release"
admin_checks "$b" "nginx, release" "$R/admin"
leak_checks "$b" "nginx, release" /admin/.htaccess /sdk/../data/consent.db
fcgi_checks "$b" "nginx, release" "$R/cgi-bin"
http GET "$b/admin/admin.js"
expect_status 200 "nginx, release: the dashboard's script"
check cmp -s "$T/body" "$R/admin/admin.js" "nginx, release: admin.js is the release's, byte for byte"
log_checks "$N/error.log" "$N/pools.log" "nginx, release"
