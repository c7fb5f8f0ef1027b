// harness.mjs: what the dashboard's browser tests share (t0630).
//
// start() makes a self-signed certificate (openssl) for admin.test and
// shop.test and starts ONE lighttpd with TLS on a free port of 127.0.0.1,
// configured by the project's own lighttpd/consent.conf and
// consent-admin.conf (copied, the API's rate limit raised as
// tests/browser/harness.mjs does): the dashboard at /admin/, its API at
// /admin/api/ ($BUILD/cgi-bin/admin), the endpoints at /functions/v1/, the
// SDK at /sdk/consent.js and a demo page of the site at /demo/ (demo(tag)
// writes it with the tag Site Settings shows).  The database is fresh,
// made by consentctl init, which writes the setup token beside it (in the
// PostgreSQL pass, CONSENT_TEST_STORE=postgres: the test's database,
// CONSENT_DB, and the token in the same data/; srv.pg is then true).
// start({ clock: true }) runs $BUILD/tests/admin-clock (the program built
// with the test clock, never installed) in place of cgi-bin/admin:
// srv.setNow(SECONDS) moves the clock of its expiry and throttle decisions
// and of its TOTP checks (CONSENT_TEST_NOW), srv.setNow(null) puts it back;
// srv.setFault(NAME) makes it inject that fault (CONSENT_TEST_FAULT,
// api_test_fault()), srv.setFault(null) none.
// launch() starts /usr/bin/chromium mapping *.test to 127.0.0.1 and
// accepting the test's certificate; the dashboard is
// https://admin.test:PORT/admin/, the demo page https://shop.test:PORT/demo/.
//
// totp(secret) is RFC 6238's code (SHA-1, 6 digits, 30 s) computed here
// from the base32 secret the enrolment shows; axe(page) runs axe-core's
// WCAG 2.1 A and AA rules on the page; tabTo(page, label) moves the focus
// by the Tab key alone.
import { chromium } from 'playwright-core';
import { execFileSync, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { freePort, shippedLighttpd, which } from '../browser/harness.mjs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUILD = process.env.BUILD || TOP;
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const AXE = readFileSync(path.join(TOP, 'node_modules/axe-core/axe.min.js'), 'utf8');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function start({ clock = false } = {}) {
	const lighttpd = which('lighttpd');
	if (!lighttpd) throw new Error('lighttpd is not installed');
	const dir = mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'consent-admin-'));
	mkdirSync(path.join(dir, 'www/demo'), { recursive: true });
	mkdirSync(path.join(dir, 'data'));
	shippedLighttpd(dir);
	execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
		'-subj', '/CN=admin.test', '-addext', 'subjectAltName=DNS:admin.test,DNS:shop.test', '-days', '2',
		'-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });

	let cgibin = path.join(BUILD, 'cgi-bin');
	const nowFile = path.join(dir, 'now');
	if (clock) {
		cgibin = path.join(dir, 'cgi-bin');
		mkdirSync(cgibin);
		for (const c of ['config', 'consent', 'scripts']) symlinkSync(path.join(BUILD, 'cgi-bin', c), path.join(cgibin, c));
		writeFileSync(path.join(cgibin, 'admin'), `#!/bin/sh
[ -s "${nowFile}" ] && CONSENT_TEST_NOW=$(cat "${nowFile}") && export CONSENT_TEST_NOW
[ -s "${nowFile}.fault" ] && CONSENT_TEST_FAULT=$(cat "${nowFile}.fault") && export CONSENT_TEST_FAULT
exec "${BUILD}/tests/admin-clock"
`, { mode: 0o755 });
	}
	// PostgreSQL (the suite's PostgreSQL pass): the test's fresh database,
	// the setup token in data/ all the same (CONSENT_DATA_DIR).
	const pg = process.env.CONSENT_TEST_STORE === 'postgres';
	const db = pg ? process.env.CONSENT_DB : path.join(dir, 'data/consent.db');
	const dataEnv = pg ? { CONSENT_DATA_DIR: path.join(dir, 'data') } : {};
	const env = { ...process.env, CONSENT_DB: db, ...dataEnv };
	const ctl = (...args) => execFileSync(path.join(BUILD, 'bin/consentctl'), args, { env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
	ctl('init');

	let proc, port, log = '';
	for (let attempt = 0; attempt < 3 && !proc; attempt++) {
		port = await freePort();
		writeFileSync(path.join(dir, 'lighttpd.conf'), `server.document-root = "${dir}/www"
server.bind = "127.0.0.1"
server.port = ${port}
server.errorlog = "${dir}/error.log"
server.breakagelog = "${dir}/cgi-stderr.log"
server.modules += ( "mod_openssl" )
ssl.engine = "enable"
ssl.pemfile = "${dir}/cert.pem"
ssl.privkey = "${dir}/key.pem"
mimetype.assign = ( ".html" => "text/html; charset=utf-8", ".js" => "text/javascript", ".css" => "text/css" )
index-file.names = ( "index.html" )
var.consent_dir = "${dir}/lighttpd"
var.consent_cgibin = "${cgibin}"
var.consent_sdk = "${TOP}/build/sdk"
var.consent_env = ( "CONSENT_DB" => "${db}"${pg ? `, "CONSENT_DATA_DIR" => "${dataEnv.CONSENT_DATA_DIR}"` : ''} )
var.consent_admin = "${TOP}/build/admin"
include var.consent_dir + "/consent.conf"
include var.consent_dir + "/consent-admin.conf"
`);
		const p = spawn(lighttpd, ['-D', '-f', path.join(dir, 'lighttpd.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
		p.stdout.on('data', (d) => { log += d; });
		p.stderr.on('data', (d) => { log += d; });
		for (let i = 0; i < 50; i++) {
			await sleep(100);
			if (p.exitCode !== null) break;
			const up = await new Promise((r) => {
				const s = net.connect(port, '127.0.0.1', () => { s.end(); r(true); });
				s.on('error', () => r(false));
			});
			if (up) { proc = p; break; }
		}
		if (!proc) p.kill('SIGKILL');
	}
	if (!proc) throw new Error(`lighttpd did not start: ${log}`);
	const logs = () => ['error.log', 'cgi-stderr.log'].map((f) => {
		try { return readFileSync(path.join(dir, f), 'utf8'); } catch { return ''; }
	}).join('');
	return {
		dir, db, pg, port, ctl, logs,
		admin: `https://admin.test:${port}/admin/`,
		api: `https://admin.test:${port}`,
		shop: `https://shop.test:${port}`,
		tokenFile: path.join(dir, 'data/.consent-setup-token'),
		setNow(t) { writeFileSync(nowFile, t == null ? '' : String(Math.floor(t))); },
		setFault(name) { writeFileSync(nowFile + '.fault', name ?? ''); },
		// The demo page of the site: TAG (Site Settings' script tag) first in its head.
		demo(tag, lang = 'en') {
			writeFileSync(path.join(dir, 'www/demo/index.html'),
				`<!doctype html><html lang="${lang}"><head><meta charset="utf-8">${tag}<title>Shop</title></head><body><h1>Shop</h1></body></html>`);
			return `https://shop.test:${port}/demo/`;
		},
		async stop() {
			proc.kill('SIGTERM');
			await new Promise((r) => { if (proc.exitCode !== null) r(); else proc.once('exit', r); });
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

export function launch() {
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			'--host-resolver-rules=MAP *.test 127.0.0.1'],
	});
}

export async function newPage(browser, opts = {}) {
	const context = await browser.newContext({ locale: 'en-US', ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 }, ...opts });
	const page = await context.newPage();
	page.errors = [];
	page.csp = [];
	page.on('pageerror', (e) => page.errors.push(String(e)));
	// CSP refusals, but those of the preview frame's SDK sending its
	// entries (refused on purpose: a preview records nothing).
	page.on('console', (m) => {
		const at = m.location().url || '';
		if (/Content Security Policy/.test(m.text()) && !at.includes('/sdk/consent.js')) page.csp.push(`${at}: ${m.text()}`);
	});
	return page;
}

// RFC 4648 base32 to bytes (the otpauth secret).
function base32(s) {
	const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	let bits = 0, v = 0;
	const out = [];
	for (const c of s.replace(/=+$/, '').toUpperCase()) {
		const i = A.indexOf(c);
		if (i < 0) throw new Error(`not base32: ${c}`);
		v = (v << 5) | i;
		bits += 5;
		if (bits >= 8) { out.push((v >>> (bits - 8)) & 255); bits -= 8; }
	}
	return Buffer.from(out);
}

// RFC 6238 with RFC 4226's truncation: the code of the step at time t (s).
export function totp(secret, t = Date.now() / 1000) {
	const msg = Buffer.alloc(8);
	msg.writeBigUInt64BE(BigInt(Math.floor(t / 30)));
	const h = createHmac('sha1', base32(secret)).update(msg).digest();
	const o = h[h.length - 1] & 15;
	return String((h.readUInt32BE(o) & 0x7fffffff) % 1e6).padStart(6, '0');
}

// axe-core's WCAG 2.1 A and AA violations of the page, as "rule: targets" lines.
export async function axe(page) {
	if (!await page.evaluate(() => typeof window.axe === 'object')) await page.evaluate(AXE);
	return page.evaluate(async () => (await window.axe.run(document, {
		runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
	})).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`));
}

// The text of the focused element's label, else its text (keyboard-only checks).
export const focusedLabel = (page) => page.evaluate(() => {
	const a = document.activeElement;
	return a && a.labels && a.labels[0] ? a.labels[0].textContent : (a ? a.textContent : '');
});

// Tab until the element labelled (or reading) label has the focus.
export async function tabTo(page, label, max = 60) {
	for (let i = 0; i < max; i++) {
		await page.keyboard.press('Tab');
		if ((await focusedLabel(page)).trim() === label) return;
	}
	throw new Error(`Tab never reached "${label}"`);
}

// axe in the light and the dark scheme; the violations of both.
export async function axeBoth(page) {
	const out = [];
	for (const scheme of ['light', 'dark']) {
		await page.emulateMedia({ colorScheme: scheme });
		await sleep(50);
		for (const v of await axe(page)) out.push(`${scheme}: ${v}`);
	}
	await page.emulateMedia({ colorScheme: 'light' });
	return out;
}
