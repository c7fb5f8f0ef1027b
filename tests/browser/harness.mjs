// harness.mjs: what every browser test file shares (issue 16).
//
// startServer() starts ONE lighttpd per test file on a free port of
// 127.0.0.1 with the project's own lighttpd/consent.conf and ratelimit.lua
// (copied to a temp dir, the limit raised from 20 to 100000 requests per
// 10 s: every request of the suite comes from 127.0.0.1, and a real page
// view costs one config request plus consent entries, so the suite would
// otherwise hit the limit by design).  It serves, for any host name:
//   /functions/v1/*    the CGI programs of $BUILD/cgi-bin (plain or ASan)
//   /sdk/consent.js    build/sdk/consent.js of the repository
//   /p/NAME.html       test pages written per test (srv.page())
//   /csp/NAME.html     the same, with a strict Content-Security-Policy
// Chromium maps every *.test name to 127.0.0.1, so the API is at
// http://api.test:PORT and the pages at http://site.test:PORT, a second
// origin.  The database is fresh per file, made by $BUILD/bin/consentctl:
// site t1 (paid) with the domain site.test.  On the PostgreSQL store
// (CONSENT_TEST_STORE=postgres, the run's cluster in CONSENT_PG_DIR) it is
// a fresh PostgreSQL database through pgbouncer (tests/pg.sh pg_new_db),
// dropped by stop().
//
// launch() starts headless /usr/bin/chromium through playwright-core (no
// downloaded browser), a fresh profile per call.  launch({ hosts }) maps
// those real names too (e.g. www.google-analytics.com) to 127.0.0.1, so
// that the built-in rules meet a tag under its own host, served by
// tracker.mjs; nothing leaves the machine.
import { chromium } from 'playwright-core';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, cpSync, existsSync, symlinkSync, readdirSync, readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUILD = process.env.BUILD || TOP;
export const SDK = path.join(TOP, 'build/sdk/consent.js');
export const VERSION = readFileSync(path.join(TOP, 'VERSION'), 'utf8').trim();
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const DEFAULTS = JSON.parse(readFileSync(path.join(TOP, 'common/config/defaults.json'), 'utf8'));

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const sha256 = (s) => createHash('sha256').update(s).digest('hex');

export function freePort() {
	return new Promise((resolve, reject) => {
		const s = net.createServer();
		s.once('error', reject);
		s.listen(0, '127.0.0.1', () => {
			const { port } = s.address();
			s.close(() => resolve(port));
		});
	});
}

// listens(pid, port): the process holds a socket listening on TCP port
// PORT (/proc/net/tcp's state 0A, its inode among the process's
// descriptors): the server that answers is the one this test started, not
// one of a test running beside it that took the same free port.
function listens(pid, port) {
	const want = ':' + port.toString(16).toUpperCase().padStart(4, '0');
	const inodes = new Set();
	for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try { text = readFileSync(f, 'utf8'); } catch { continue; }
		for (const line of text.split('\n').slice(1)) {
			const c = line.trim().split(/\s+/);
			if (c.length > 9 && c[3] === '0A' && c[1].endsWith(want)) inodes.add(c[9]);
		}
	}
	try {
		return readdirSync(`/proc/${pid}/fd`).some((fd) => {
			try { return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]); } catch { return false; }
		});
	} catch { return false; }
}

export function which(cmd) {
	for (const d of (process.env.PATH || '').split(':').concat(['/usr/sbin', '/sbin'])) {
		if (d && existsSync(path.join(d, cmd))) return path.join(d, cmd);
	}
	return null;
}

// The built-in config (common/config/defaults.json, its texts from
// common/config/i18n/CODE.json) with only the languages given (en by default): the
// base of every published test config.
export function baseConfig(langs = ['en']) {
	const doc = structuredClone(DEFAULTS);
	const tr = {};
	for (const l of langs) {
		tr[l] = JSON.parse(readFileSync(path.join(TOP, 'common/config/i18n', l + '.json'), 'utf8'));
	}
	doc.content.translations = tr;
	return doc;
}

// A config whose region "default" (every test visitor: no country is
// known) has the consent model MODEL, with optional per-category models.
export function modelConfig(model, categoryModels) {
	const doc = baseConfig();
	doc.regions = [{ id: 'default', countries: ['*'], consentModel: model }];
	if (categoryModels) doc.regions[0].categoryModels = categoryModels;
	return doc;
}

// The shipped lighttpd/ in DIR/lighttpd, the rate limit raised (see the
// top of this file).
export function shippedLighttpd(dir) {
	cpSync(path.join(TOP, 'lighttpd'), path.join(dir, 'lighttpd'), { recursive: true });
	const lua = path.join(dir, 'lighttpd/ratelimit.lua');
	const src = readFileSync(lua, 'utf8');
	const raised = src.replace(/^local LIMIT(\s*)= 20\b/m, 'local LIMIT$1= 100000');
	if (raised === src) throw new Error('ratelimit.lua: no "local LIMIT = 20" line to raise');
	writeFileSync(lua, raised);
}

// holdConsent: serve /functions/v1/consent through a wrapper that, while
// srv.holdConsent(MS) is in force, holds each answer MS milliseconds AFTER
// the program stored the entry: a page that unloads in that time has its
// decision stored but not answered.
export async function startServer({ holdConsent = false } = {}) {
	const lighttpd = which('lighttpd');
	if (!lighttpd) throw new Error('lighttpd is not installed');
	const dir = mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'consent-browser-'));
	mkdirSync(path.join(dir, 'www/p'), { recursive: true });
	mkdirSync(path.join(dir, 'www/csp'), { recursive: true });
	mkdirSync(path.join(dir, 'www/cfg'), { recursive: true });
	mkdirSync(path.join(dir, 'sdk'));
	cpSync(SDK, path.join(dir, 'sdk/consent.js'));
	shippedLighttpd(dir);

	const pg = process.env.CONSENT_TEST_STORE === 'postgres';
	const pgsh = (cmd) => execFileSync('sh', ['-c', `. "${TOP}/tests/pg.sh" && ${cmd}`],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
	const db = pg ? pgsh('pg_new_db browser') : path.join(dir, 'consent.db');
	const env = { ...process.env, CONSENT_DB: db };
	const ctl = (...args) => execFileSync(path.join(BUILD, 'bin/consentctl'), args,
		{ env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
	ctl('init');
	ctl('site', 'add', 't1', '--name', 'Test site', '--domain', 'site.test', '--tier', 'paid');

	let cgibin = path.join(BUILD, 'cgi-bin');
	const holdFile = path.join(dir, 'hold-consent-ms');
	if (holdConsent) {
		cgibin = path.join(dir, 'cgi-bin');
		mkdirSync(cgibin);
		for (const c of ['config', 'scripts']) symlinkSync(path.join(BUILD, 'cgi-bin', c), path.join(cgibin, c));
		writeFileSync(path.join(cgibin, 'consent'), `#!/bin/sh
out=$(mktemp "${dir}/answer.XXXXXX") || exit 1
"${BUILD}/cgi-bin/consent" >"$out"
ms=$(cat "${holdFile}" 2>/dev/null) && sleep "$(echo "$ms" | awk '{ print $1 / 1000 }')"
cat "$out"; rm -f "$out"
`, { mode: 0o755 });
	}
	const cgiEnv = { CONSENT_DB: db, CONSENT_COUNTRY_HEADER: 'none' };
	for (const v of ['ASAN_OPTIONS', 'UBSAN_OPTIONS']) if (process.env[v]) cgiEnv[v] = process.env[v];
	let proc, port;
	for (let attempt = 0; attempt < 5 && !proc; attempt++) {
		port = await freePort();
		const api = `http://api.test:${port}`;
		const csp = `script-src 'self' ${api}; connect-src ${api}; style-src 'self'`;
		const conf = `server.document-root = "${dir}/www"
server.bind = "127.0.0.1"
server.port = ${port}
server.errorlog = "${dir}/error.log"
server.breakagelog = "${dir}/cgi-stderr.log"
mimetype.assign = ( ".html" => "text/html; charset=utf-8", ".json" => "application/json", ".js" => "text/javascript", ".css" => "text/css" )
var.consent_dir = "${dir}/lighttpd"
var.consent_cgibin = "${cgibin}"
var.consent_sdk = "${dir}/sdk"
var.consent_env = ( ${Object.entries(cgiEnv).map(([k, v]) => `"${k}" => "${v}"`).join(', ')} )
include var.consent_dir + "/consent.conf"
$HTTP["url"] =~ "^/csp/" {
	setenv.set-response-header = ( "Content-Security-Policy" => "${csp}", "Cache-Control" => "no-store" )
}
else $HTTP["url"] =~ "^/(p|cfg)/" {
	setenv.set-response-header = ( "Cache-Control" => "no-store" )
}
`;
		writeFileSync(path.join(dir, 'lighttpd.conf'), conf);
		const p = spawn(lighttpd, ['-D', '-f', path.join(dir, 'lighttpd.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
		let exited = false;
		p.on('exit', () => { exited = true; });
		for (let i = 0; i < 50 && !exited; i++) {
			try {
				const r = await fetch(`http://127.0.0.1:${port}/sdk/consent.js`);
				await r.arrayBuffer();
				if (r.status === 200 && !exited && listens(p.pid, port)) { proc = p; break; }
			} catch { /* not up yet */ }
			await sleep(100);
		}
		if (!proc) { p.kill('SIGKILL'); }
	}
	if (!proc) throw new Error(`lighttpd did not start: ${readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-500)}`);

	let n = 0;
	const srv = {
		dir, db, port, ctl,
		api: `http://api.test:${port}`,
		site: `http://site.test:${port}`,
		sdkUrl: `http://api.test:${port}/sdk/consent.js`,
		// consentctl config publish KEY: the new version.
		publish(doc, key = 't1') {
			const f = path.join(dir, `cfg-${++n}.json`);
			writeFileSync(f, JSON.stringify(doc));
			return Number(ctl('config', 'publish', key, f).trim());
		},
		pause: (key = 't1') => ctl('site', 'pause', key),
		resume: (key = 't1') => ctl('site', 'resume', key),
		setTier(tier, cap, key = 't1') {
			const a = ['site', 'set', key, '--tier', tier];
			if (cap !== undefined) a.push('--mau-cap', String(cap));
			return ctl(...a);
		},
		// consentctl consent export KEY as parsed JSONL, oldest first.
		entries(key = 't1') {
			return ctl('consent', 'export', key).split('\n').filter(Boolean).map((l) => JSON.parse(l));
		},
		// Wait until the export holds at least COUNT entries (the SDK's
		// requests are keepalive fetches that nothing on the page awaits).
		async waitEntries(count, key = 't1', ms = 5000) {
			const end = Date.now() + ms;
			let e = srv.entries(key);
			while (e.length < count && Date.now() < end) { await sleep(50); e = srv.entries(key); }
			return e;
		},
		// A static file under the pages' docroot: its URL on site.test.
		file(name, text) {
			writeFileSync(path.join(dir, 'www/cfg', name), text);
			return `${srv.site}/cfg/${name}`;
		},
		// Write a test page; its URL.  attrs: the SDK tag's attributes
		// (data-site-key defaults to t1; null leaves one out), head/body:
		// more HTML, csp: serve it with the strict CSP header.
		page({ attrs = {}, head = '', body = '', csp = false, lang = 'en' } = {}) {
			const a = { src: srv.sdkUrl, 'data-site-key': 't1', ...attrs };
			const tag = '<script ' + Object.entries(a).filter(([, v]) => v !== null)
				.map(([k, v]) => `${k}="${String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`).join(' ') + '></script>';
			const name = `${++n}.html`;
			const folder = csp ? 'csp' : 'p';
			writeFileSync(path.join(dir, 'www', folder, name), `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8">
${tag}
<title>test page ${n}</title>
${head}
</head><body>
<main id="content"><h1>Test page</h1><p>Some content of the page.</p></main>
${body}
</body></html>
`);
			return `${srv.site}/${folder}/${name}`;
		},
		// With startServer({ holdConsent: true }): hold every consent answer
		// MS ms after the entry is stored; 0 answers at once again.
		holdConsent(ms) {
			if (!holdConsent) throw new Error('startServer({ holdConsent: true }) was not asked for');
			if (ms > 0) writeFileSync(holdFile, String(ms)); else rmSync(holdFile, { force: true });
		},
		logs() {
			let s = '';
			for (const f of ['error.log', 'cgi-stderr.log']) {
				try { s += readFileSync(path.join(dir, f), 'utf8'); } catch { /* none */ }
			}
			return s;
		},
		async stop() {
			proc.kill('SIGTERM');
			await new Promise((r) => { if (proc.exitCode !== null) r(); else proc.once('exit', r); });
			rmSync(dir, { recursive: true, force: true });
			if (pg) pgsh(`pg_drop_db "${db.replace(/.*dbname=(\S+).*/, '$1')}"`);
		},
	};
	process.once('exit', () => { try { proc.kill('SIGKILL'); } catch { /* gone */ } });
	return srv;
}

export async function launch({ hosts = [] } = {}) {
	const map = ['*.test', ...hosts].map((x) => `MAP ${x} 127.0.0.1`).join(', ');
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			`--host-resolver-rules=${map}`],
	});
}

// A fresh context (cookies, storage) and page; requests and console
// errors are recorded on the page object.
export async function newPage(browser, opts = {}) {
	const context = await browser.newContext({ locale: 'en-US', ...opts });
	const page = await context.newPage();
	page.requests = [];
	page.errors = [];
	context.on('request', (r) => page.requests.push(r));
	page.on('pageerror', (e) => page.errors.push(String(e)));
	return page;
}

// Open URL and wait for Consent.ready; the state it resolved with.
export async function visit(page, url) {
	await page.goto(url);
	return ready(page);
}

export async function ready(page) {
	await page.waitForFunction(() => window.Consent && window.Consent.ready, null, { timeout: 5000 });
	return page.evaluate(() => window.Consent.ready);
}

// The banner and the preferences dialog, by their ids in the shadow root
// (Playwright's CSS and role locators pierce open shadow roots).
export const banner = (page) => page.locator('#consent-banner');
export const prefs = (page) => page.locator('#consent-prefs');
export const button = (page, name) => page.getByRole('button', { name, exact: true });

export async function isShown(loc) {
	if (await loc.count() === 0) return false;
	return loc.first().isVisible();
}

// The consent_choice cookie, decoded; null when there is none.
export async function storedChoice(page) {
	const c = (await page.context().cookies()).find((x) => x.name === 'consent_choice');
	return c ? { cookie: c, value: JSON.parse(decodeURIComponent(c.value)) } : null;
}

export function apiRequests(page, endpoint) {
	return page.requests.filter((r) => new URL(r.url()).pathname === `/functions/v1/${endpoint}`);
}

// The requests to ENDPOINT with METHOD once at least COUNT were seen (or MS
// passed): Playwright reports a request to this process a little after the
// browser sent it, so an entry already in the database does not mean its
// request event has arrived here.
export async function waitApiRequests(page, endpoint, method, count, ms = 5000) {
	const end = Date.now() + ms;
	const seen = () => apiRequests(page, endpoint).filter((r) => r.method() === method);
	while (seen().length < count && Date.now() < end) await sleep(50);
	return seen();
}

// The entries after the first SKIP ones, once at least COUNT of them exist.
export async function waitEntriesAfter(srv, skip, count, ms = 5000) {
	const e = await srv.waitEntries(skip + count, 't1', ms);
	return e.slice(skip);
}

// The export's entries of the visitor of PAGE (its consent.id), once at
// least COUNT exist: immune to late entries of other tests' visitors.
export async function visitorEntries(srv, page, count, ms = 15000) {
	const id = await page.evaluate(() => JSON.parse(localStorage.getItem('consent.id')));
	if (typeof id !== 'string') throw new Error('no consent.id in localStorage');
	const hash = sha256(id);
	const end = Date.now() + ms;
	for (;;) {
		const e = srv.entries().filter((x) => x.anon_id_hash === hash);
		if (e.length >= count || Date.now() > end) return e;
		await sleep(50);
	}
}
