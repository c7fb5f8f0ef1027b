// log.test.mjs: issue 26's views in a real headless Chromium over HTTPS
// (t0635; ../harness.mjs): a tracker sync started in the dashboard and
// closed by the demo page opened with its fragment, another failed by its
// report; the suggested rules published and then holding the tracker on
// the demo page; filters and paging over a generated log; an export equal
// to `consentctl consent export`'s, and one failing midway told and not
// saved; a receipt equal to `consent receipt --json`'s, erasure then a
// byte scan for the visitor's hash; seal and verify; the statistics'
// charts and tables equal to `report --json`'s (by language, and the
// visitors without a decision apart); a backup; a
// purge 40 days later (the program's test clock); markup in a script's
// source, a sync's error, page addresses and user agents shown as text (a
// domain with markup is refused by the endpoint); an editor's and a
// viewer's views (statistics and inventory, no row of the log); axe-core
// on every view, light and dark; the sync, a filter of the log and the
// receipt by keyboard only.  The tests run in order over one dashboard;
// the log is made through the consent and scripts programs themselves
// (cgi-bin/), as the endpoints store it.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as h from '../harness.mjs';

const XSS = '<img src=x onerror="window.pwned=1">';
const OWNER = 'owner@shop';
const PW = 'correct horse battery staple 42';
let srv, browser, page, secret, scriptTag;
let lastStep = 0;

// A TOTP code of a step after every step used so far (the program
// accepts a step once, and none before the last it accepted; ±1 step of
// now), waiting for the next step when now + 1 is used.
async function code() {
	for (;;) {
		const now = Math.floor(Date.now() / 1000 / 30);
		const s = Math.max(now - 1, lastStep + 1);
		if (s <= now + 1) { lastStep = s; return h.totp(secret, s * 30 + 1); }
		await h.sleep(1000);
	}
}

// The API from the page (its origin, cookie and CSRF token): {status, body}.
const api = (method, route, body) => page.evaluate(async ([m, r, b]) => {
	const s = await (await fetch('/admin/api/session', { cache: 'no-store' })).json();
	const init = { method: m, headers: { 'X-CSRF-Token': s.csrf || '' }, cache: 'no-store' };
	if (b !== undefined) { init.body = JSON.stringify(b); init.headers['Content-Type'] = 'application/json'; }
	const res = await fetch('/admin/api/' + r, init);
	return { status: res.status, body: await res.json().catch(() => null) };
}, [method, route, body]);

// One POST to an endpoint program run as CGI, as the web server runs it.
function cgi(prog, body, env = {}, query = '') {
	const input = JSON.stringify(body);
	const out = execFileSync(path.join(h.BUILD, 'cgi-bin', prog), [], {
		input, encoding: 'utf8',
		env: { PATH: process.env.PATH, CONSENT_DB: srv.db, REQUEST_METHOD: 'POST', QUERY_STRING: query, GATEWAY_INTERFACE: 'CGI/1.1',
			SERVER_PROTOCOL: 'HTTP/1.1', SCRIPT_NAME: `/functions/v1/${prog}`, REMOTE_ADDR: '127.0.0.1', HTTP_ORIGIN: 'https://shop.test',
			CONTENT_TYPE: 'application/json', CONTENT_LENGTH: String(Buffer.byteLength(input)), ...env },
	});
	const st = /^Status: (\d+)/m.exec(out);
	return st ? Number(st[1]) : 200;
}

const heading = () => page.locator('h1').first();
async function go(route, title) {
	await page.goto(srv.admin + route);
	await page.locator('h1', { hasText: title }).first().waitFor();
}
async function cleanAxe(name, p = page) {
	assert.deepEqual(await h.axeBoth(p), [], `${name}: axe-core finds no WCAG 2.1 A/AA violation, light or dark`);
}
const focusedLabel = () => h.focusedLabel(page);
const tabTo = (label) => h.tabTo(page, label);
// Answers the re-authentication dialog when it opens.
async function reauth() {
	const d = page.getByRole('dialog', { name: 'Confirm it is you' });
	await d.waitFor();
	await d.getByLabel('Password', { exact: true }).fill(PW);
	await d.getByLabel('Code from the authenticator app').fill(await code());
	await d.getByRole('button', { name: 'Confirm' }).click();
}
// The rows of a table as arrays of cell texts.
const cells = (testid, p = page) => p.getByTestId(testid).locator('tbody tr').evaluateAll((trs) =>
	trs.map((tr) => Array.from(tr.children, (c) => c.textContent)));

before(async () => {
	srv = await h.start({ clock: true }); // the purge test moves the program's clock
	browser = await h.launch();
	page = await h.newPage(browser);
	await page.context().route(/mxpnl\.com/, (r) => r.abort());
	await page.goto(srv.admin);
	await heading().filter({ hasText: 'Set up the dashboard' }).waitFor();
	const token = readFileSync(srv.tokenFile, 'utf8').trim();
	const s = await page.evaluate(async ([t, u, p]) => (await fetch('/admin/api/setup', { method: 'POST',
		headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: t, username: u, password: p }) })).json(), [token, OWNER, PW]);
	secret = s.secret;
	await page.goto(srv.admin);
	await page.getByLabel('User name').fill(OWNER);
	await page.getByLabel('Password', { exact: true }).fill(PW);
	await page.getByLabel('Code from the authenticator app or a recovery code').fill(await code());
	await page.getByRole('button', { name: 'Sign in' }).click();
	await heading().filter({ hasText: 'Sites' }).waitFor();
	const r = await api('POST', 'sites', { key: 'shop', name: 'Shop', tier: 'paid', domains: ['shop.test'] });
	assert.equal(r.status, 201, JSON.stringify(r.body));
	scriptTag = r.body.script_tag;
});
after(async () => { await browser?.close(); await srv?.stop(); });

const DEMO_TRACKER = '<script src="https://cdn.mxpnl.com/libs/mixpanel-2-latest.min.js"></script>';

test('trackers by keyboard only: a sync started in the dashboard shows the address with its fragment, and opening it closes the sync; the inventory lists the domain', async () => {
	const demo = srv.demo(scriptTag + DEMO_TRACKER);
	await go('#/sites/shop/trackers', 'Trackers');
	await page.getByText('No script was reported yet').waitFor();
	await cleanAxe('trackers, empty');
	await tabTo('Page to open');
	await page.keyboard.press('Control+A');
	await page.keyboard.type(demo);
	await page.keyboard.press('Tab');
	assert.equal((await focusedLabel()).trim(), 'Start a sync');
	await page.keyboard.press('Enter');
	const url = await page.getByTestId('sync-url').textContent();
	assert.match(url, new RegExp(`^${demo.replace(/[.?]/g, '\\$&')}#consent-sync=[0-9a-f-]{36}$`), url);
	assert.equal(await page.getByTestId('sync-status').textContent(), 'pending');
	await cleanAxe('trackers, a sync pending');
	// The button opens the page in a new tab; its SDK reports at once.
	await tabTo('Open the page');
	const popup = page.context().waitForEvent('page');
	await page.keyboard.press('Enter');
	const shop = await popup;
	assert.equal(shop.url(), url, 'the page opened is the address shown');
	await page.getByTestId('sync-status').filter({ hasText: 'complete' }).waitFor({ timeout: 15000 });
	await shop.close();
	await page.getByTestId('inventory').waitFor();
	const rows = await cells('inventory');
	const mx = rows.find((r) => r[0] === 'cdn.mxpnl.com');
	assert.ok(mx, `the reported domain is listed: ${JSON.stringify(rows)}`);
	assert.equal(mx[1], 'analytics', 'its category from the tracker database');
	assert.equal(mx[3], 'no rule', 'no rule covers it yet');
	assert.equal(mx[6], '1');
});

test('rules: the suggested rule published from the inventory as a new version, then holding the tracker on the demo page', async () => {
	assert.deepEqual(await page.getByTestId('rules').locator('li').allTextContents(), ['mxpnl.com: analytics']);
	await page.getByRole('button', { name: 'Publish these rules' }).click();
	await page.getByRole('status').filter({ hasText: /The rules were published as version 1\./ }).waitFor();
	const live = (await api('GET', 'sites/shop/configs/live')).body;
	assert.deepEqual(live.document.scriptRules.filter((r) => r.pattern === 'mxpnl.com'), [{ pattern: 'mxpnl.com', category: 'analytics' }]);
	await page.getByText('No rule to add').waitFor();
	assert.equal((await cells('inventory')).find((r) => r[0] === 'cdn.mxpnl.com')[3], 'yes', 'now covered');
	const audit = (await api('GET', 'audit?site=shop')).body.entries.map((e) => e.action);
	assert.ok(audit.includes('rules.publish') && audit.includes('sync.start'), audit.join(' '));
	await cleanAxe('trackers, covered');
	const shop = await h.newPage(browser);
	await shop.context().route(/mxpnl\.com/, (r) => r.abort());
	await shop.goto(srv.demo(scriptTag + DEMO_TRACKER));
	await shop.waitForFunction(() => document.querySelector('script[src*="mxpnl"]')?.type === 'javascript/blocked', null, { timeout: 10000 });
	await shop.context().close();
});

// The generated log: visitors v0..v119, their event, action, country and
// GPC from their number; v0 to v2 carry markup in their page address and
// user agent.  The demo page's visits added impressions of their own: what
// each filter should show is found in consentctl's export of the log.
const N = 120;
const EVENTS = ['initial', 'update', 'impression'];
const ACTS = ['opt_in', 'opt_out', 'partial', 'acknowledge'];
const COUNTRIES = ['DE', 'FR', 'US'];
const gen = (i) => ({ event: EVENTS[i % 3], action: i % 3 === 2 ? null : ACTS[i % 4], country: COUNTRIES[i % 5 % 3], gpc: i % 7 === 0 });
test('consent log: filters and keyset paging over a generated log, newest first; markup in a page address and a user agent is text', async () => {
	for (let i = 0; i < N; i++) {
		const g = gen(i);
		const body = { site_key: 'shop', anon_id: `v${i}`, categories: { necessary: true, analytics: i % 2 === 0 },
			event_type: g.event, page_url: i < 3 ? `https://shop.test/p?q=${XSS}` : `https://shop.test/p${i}`, resolved_language: 'en' };
		if (g.action) body.event_action = g.action;
		const env = { HTTP_CF_IPCOUNTRY: g.country, HTTP_USER_AGENT: i < 3 ? `Mozilla/5.0 ${XSS}` : 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0' };
		if (g.gpc) env.HTTP_SEC_GPC = '1';
		assert.equal(cgi('consent', body, env), 201, `entry ${i}`);
	}
	// The export, newest first (it lists the entries in the order stored).
	const all = srv.ctl('consent', 'export', 'shop', '--format', 'jsonl').trim().split('\n').map((l) => JSON.parse(l)).reverse();
	assert.ok(all.length >= N && all.length < 150, `${all.length} entries`);
	await go('#/sites/shop/log', 'Consent log');
	await page.getByTestId('entries').waitFor();
	await cleanAxe('consent log');
	const pageRows = async () => (await cells('entries'));
	// Unfiltered: 50, 50, 20, newest first (v119 first).
	let rows = await pageRows();
	assert.equal(rows.length, 50);
	assert.ok(rows[0][11].endsWith('/p119'), `newest first: ${rows[0][11]}`);
	await page.getByRole('button', { name: 'Next page' }).click();
	await page.getByText('Page 2, 50 entries.').waitFor();
	rows = await pageRows();
	assert.ok(rows[0][11].endsWith('/p69'), `page 2 starts after page 1: ${rows[0][11]}`);
	await page.getByRole('button', { name: 'Next page' }).click();
	await page.getByText(`Page 3, ${all.length - 100} entries.`).waitFor();
	assert.equal(await page.getByRole('button', { name: 'Next page' }).count(), 0, 'the last page has no next');
	rows = await pageRows();
	assert.ok(rows.some((r) => r[11] === `https://shop.test/p?q=${XSS}`), 'the page address as text');
	assert.equal(await page.locator('main img').count(), 0, 'no element made of it');
	await page.getByRole('button', { name: 'Previous page' }).click();
	await page.getByText('Page 2, 50 entries.').waitFor();
	// Filters: each alone, then together, against the export's rows.
	const want = (f) => all.filter(f).map((e) => e.page_url ?? '');
	const gpc = (e) => (e.gpc == null ? null : e.gpc === true || e.gpc === 1);
	const filtered = async (set, f) => {
		for (const [label, v] of Object.entries(set)) {
			const el = page.getByLabel(label, { exact: true });
			if (await el.evaluate((e) => e.tagName) === 'SELECT') await el.selectOption(v); else await el.fill(v);
		}
		const w = want(f);
		const got = [];
		let button = page.getByRole('button', { name: 'Show' });
		for (let k = 1; ; k++) {
			const res = page.waitForResponse((r) => r.url().includes('/admin/api/sites/shop/consents?'));
			await button.click();
			assert.equal((await res).status(), 200, `${JSON.stringify(set)}: ${await (await res).text()}`);
			await page.getByText(`Page ${k}, ${Math.min(50, w.length - got.length)} entries.`).waitFor();
			got.push(...(await pageRows()).map((r) => r[11]));
			button = page.getByRole('button', { name: 'Next page' });
			if (await button.count() === 0) break;
		}
		assert.deepEqual(got, w, JSON.stringify(set));
	};
	// By keyboard only: the action chosen with the arrow keys, Enter on Show.
	await page.getByRole('heading', { name: 'Consent log' }).focus();
	await tabTo('Action');
	await page.keyboard.press('ArrowDown'); // Opt-in
	await page.keyboard.press('ArrowDown'); // Opt-out
	assert.equal(await page.getByLabel('Action', { exact: true }).inputValue(), 'opt_out');
	await tabTo('Show');
	const kb = page.waitForResponse((r) => r.url().includes('action=opt_out'));
	await page.keyboard.press('Enter');
	await kb;
	const optOut = want((e) => e.event_action === 'opt_out');
	await page.getByText(`Page 1, ${Math.min(50, optOut.length)} entries.`).waitFor();
	assert.deepEqual((await pageRows()).map((r) => r[11]), optOut.slice(0, 50));
	await filtered({ Action: 'opt_out' }, (e) => e.event_action === 'opt_out');
	await filtered({ Action: '', Event: 'impression' }, (e) => e.event_type === 'impression');
	await filtered({ Event: '', Country: 'DE' }, (e) => e.country === 'DE');
	await filtered({ Country: '', GPC: 'true' }, (e) => gpc(e) === true);
	await filtered({ GPC: 'false', Event: 'initial', Country: 'FR' }, (e) => gpc(e) === false && e.event_type === 'initial' && e.country === 'FR');
	await filtered({ GPC: '', Event: '', Country: '', 'Config version': '1' }, (e) => e.published_version === 1);
	await filtered({ 'Config version': '0' }, (e) => e.published_version === 0);
	await filtered({ 'Config version': '', From: '2000-01-01T00:00', Before: '2000-01-02T00:00' }, () => false);
	await filtered({ From: '', Before: '' }, () => true);
	assert.equal(await page.evaluate(() => window.pwned), undefined);
});

test('markup in a reported source and a sync\'s error: text in the inventory and the sync; a domain with markup refused', async () => {
	const report = (scripts) => cgi('scripts', { site_key: 'shop', page_url: `https://shop.test/x?${XSS}`, timestamp: Math.floor(Date.now() / 1000), scripts });
	assert.equal(report([{ src: `https://cdn.evil.test/a.js?${XSS}`, domain: 'cdn.evil.test', category: null, blocked: false }]), 200);
	assert.equal(report([{ src: 'https://x.test/b.js', domain: `x${XSS}.test`, category: null, blocked: false }]), 400,
		'a domain with markup never reaches the inventory: the endpoint takes host names only');
	await go('#/sites/shop/trackers', 'Trackers');
	await page.getByTestId('inventory').waitFor();
	const rows = await cells('inventory');
	const evil = rows.find((r) => r[0] === 'cdn.evil.test');
	assert.ok(evil, JSON.stringify(rows));
	assert.equal(evil[7], `https://cdn.evil.test/a.js?${XSS}`, 'the source as text');
	// A sync whose page reports a failure: its status and error, as text.
	await page.getByRole('button', { name: 'Start a sync' }).click();
	const id = /consent-sync=([0-9a-f-]{36})$/.exec(await page.getByTestId('sync-url').textContent())[1];
	assert.equal(cgi('scripts', { site_key: 'shop', page_url: 'https://shop.test/', timestamp: Math.floor(Date.now() / 1000), scripts: [],
		error: `scan failed ${XSS}` }, {}, `sync_id=${id}`), 200);
	await page.getByTestId('sync-status').filter({ hasText: 'failed' }).waitFor({ timeout: 15000 });
	assert.ok((await page.getByTestId('sync').textContent()).includes(`scan failed ${XSS}`), 'the error as text');
	assert.equal(await page.locator('main img').count(), 0);
	assert.equal(await page.evaluate(() => window.pwned), undefined);
});

test('export: CSV and JSONL downloads after re-authentication, byte for byte consentctl consent export', async () => {
	await go('#/sites/shop/log', 'Consent log');
	for (const fmt of ['csv', 'jsonl']) {
		await page.getByLabel('Format').selectOption(fmt);
		const dl = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Download the export' }).click();
		await reauth(); // asked first, every time
		const d = await dl;
		assert.equal(d.suggestedFilename(), `consents-shop.${fmt}`);
		const got = readFileSync(await d.path(), 'utf8');
		const want = srv.ctl('consent', 'export', 'shop', '--format', fmt);
		assert.equal(got, want, `${fmt}: the dashboard's export is consentctl's (its end mark checked and left out)`);
		assert.ok(got.split('\n').length > N, `${fmt}: every entry`);
		const entries = srv.ctl('consent', 'export', 'shop', '--format', 'jsonl').trim().split('\n').length;
		await page.getByRole('status').filter({ hasText: `Export complete: ${entries} entries.` }).waitFor();
	}
	// An export failing midway (the test program's fault: its first write
	// cut in half, then failing): the page tells it and saves nothing.
	srv.setFault('export');
	try {
		let saved = false;
		const seen = () => { saved = true; };
		page.on('download', seen);
		await page.getByRole('button', { name: 'Download the export' }).click();
		await reauth();
		const alert = page.getByRole('alert').filter({ hasText: 'The export failed midway' });
		await alert.waitFor();
		assert.equal(await alert.textContent(), 'The export failed midway (it ended without its end mark): nothing was saved. Try again.');
		await cleanAxe('an export failed');
		page.off('download', seen);
		assert.equal(saved, false, 'no file was saved');
	} finally {
		srv.setFault(null);
	}
});

test('proof: seal now, the head shown with its copy button, verify (and against the head recorded); axe', async () => {
	await go('#/sites/shop/proof', 'Proof');
	await page.getByText('Nothing is sealed yet.').waitFor();
	await cleanAxe('proof, unsealed');
	const total = srv.ctl('consent', 'export', 'shop', '--format', 'jsonl').trim().split('\n').length;
	await page.getByRole('button', { name: 'Seal now' }).click();
	await page.getByRole('status').filter({ hasText: `${total} entries sealed.` }).waitFor();
	const head = JSON.parse(await page.getByTestId('head').textContent());
	assert.equal(head.seq, 1);
	assert.equal(srv.ctl('consent', 'head', 'shop').trim().includes(head.hash), true, 'the head consentctl prints');
	await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(srv.admin).origin });
	await page.getByRole('button', { name: 'Copy the head' }).click();
	assert.equal(JSON.parse(await page.evaluate(() => navigator.clipboard.readText())).hash, head.hash);
	await page.getByRole('button', { name: 'Verify the log' }).click();
	assert.match(await page.getByTestId('verdict').textContent(), new RegExp(`The log verifies: ${total} entries, ${total} sealed`));
	// Each verdict differs from the one before it, so each wait sees the new one.
	await page.getByLabel('A head recorded earlier (its hash, optional)').fill('0'.repeat(64));
	await page.getByRole('button', { name: 'Verify the log' }).click();
	await page.getByTestId('verdict').filter({ hasText: 'does not verify' }).waitFor();
	await page.getByLabel('A head recorded earlier (its hash, optional)').fill(head.hash);
	await page.getByRole('button', { name: 'Verify the log' }).click();
	await page.getByTestId('verdict').filter({ hasText: 'The log verifies' }).waitFor();
	await cleanAxe('proof, sealed');
	// Retention and a purge's dry run: nothing is old enough.
	await page.getByLabel('Keep entries for (days)').fill('30');
	await page.getByRole('button', { name: 'Save', exact: true }).click();
	await page.getByRole('status').filter({ hasText: 'Retention saved.' }).waitFor();
	await page.getByRole('button', { name: 'Purge…' }).click();
	await page.getByTestId('dry-run').filter({ hasText: /^0 entries older than/ }).waitFor();
	await cleanAxe('purge dialog');
	await page.getByRole('button', { name: 'Cancel' }).click();
});

test('receipt by keyboard only: each entry with its texts and its proof verified in the page; downloaded, it is consentctl consent receipt --json', async () => {
	await go('#/sites/shop/receipt', 'Receipts');
	await cleanAxe('receipts');
	await tabTo('Visitor id');
	await page.keyboard.type('v1');
	await page.keyboard.press('Enter');
	await page.getByTestId('receipt').waitFor();
	assert.equal(await page.locator('article.entry').count(), 1);
	assert.match(await page.locator('article.entry').textContent(), /inclusion proof verified in seal 1/);
	assert.equal((await cells('entries'))[0][11], `https://shop.test/p?q=${XSS}`, 'the page address as text');
	assert.equal(await page.locator('main img').count(), 0);
	await cleanAxe('a receipt');
	await tabTo('Download the receipt (JSON)');
	const dl = page.waitForEvent('download');
	await page.keyboard.press('Enter');
	const got = JSON.parse(readFileSync(await (await dl).path(), 'utf8'));
	assert.deepEqual(got, JSON.parse(srv.ctl('consent', 'receipt', 'shop', '--anon-id', 'v1', '--json')));
});

test('erasure: the word typed and the password again; the visitor is gone, no byte of its hash is left, the log still verifies', async () => {
	await page.getByRole('button', { name: 'Erase…' }).click();
	const d = page.getByRole('dialog', { name: 'Erase the visitor?' });
	await cleanAxe('erase dialog');
	await d.getByLabel('Type ERASE to confirm').fill('erase');
	await d.getByRole('button', { name: 'Erase' }).click();
	assert.equal(await d.isVisible(), true, 'a wrong word: nothing happens');
	await d.getByLabel('Type ERASE to confirm').fill('ERASE');
	await d.getByRole('button', { name: 'Erase' }).click();
	if (await page.getByRole('dialog', { name: 'Confirm it is you' }).isVisible().catch(() => false)) await reauth();
	await page.getByRole('status').filter({ hasText: '1 entries of the visitor were erased' }).waitFor();
	const r = await api('GET', 'sites/shop/receipt?anon_id=v1');
	assert.deepEqual(r.body.entries, []);
	const hash = createHash('sha256').update('v1').digest('hex');
	// The byte scan reads the SQLite file; PostgreSQL's files are the
	// cluster's (t0132 scans a pg_dump there).
	if (!srv.pg) {
		for (const f of [srv.db, srv.db + '-wal']) {
			let bytes = '';
			try { bytes = readFileSync(f, 'latin1'); } catch { continue; }
			assert.equal(bytes.includes(hash), false, `no byte of the hash in ${path.basename(f)}`);
		}
		assert.ok(readFileSync(srv.db, 'latin1').includes(createHash('sha256').update('v2').digest('hex')) ||
			readFileSync(srv.db + '-wal', 'latin1').includes(createHash('sha256').update('v2').digest('hex')), 'the scan finds a hash that is there');
	}
	assert.equal(srv.ctl('consent', 'find', 'shop', '--anon-id', 'v1').trim(), '', 'consentctl finds none of its entries');
	assert.equal(JSON.parse(srv.ctl('consent', 'verify', 'shop', '--json')).ok, true);
});

test('statistics: uPlot charts with the same numbers in the tables beside them as consentctl report --json; the CSP holds', async () => {
	// Each chart's data as the page hands it to uPlot, kept by a wrapper
	// installed before the page's scripts run (uplot.js sets window.uPlot).
	await page.addInitScript(() => {
		let U;
		Object.defineProperty(window, 'uPlot', { configurable: true, get: () => U, set: (v) => {
			U = function (opts, data, el) {
				(window.charts ||= {})[el.closest('section').getAttribute('aria-labelledby').slice(0, -2)] =
					{ series: opts.series.slice(1).map((x) => x.label), data: data.slice(1) };
				return new v(opts, data, el);
			};
			U.paths = v.paths;
		} });
	});
	await go('#/sites/shop/stats', 'Statistics');
	await page.reload();
	await page.getByTestId('t-totals').waitFor();
	await page.locator('.chart canvas').first().waitFor();
	const day = new Date().toISOString().slice(0, 10);
	const rep = JSON.parse(srv.ctl('report', 'shop', '--json', '--since', day, '--until', day));
	const n = (v) => (v == null ? '–' : v.toLocaleString('en-US'));
	const p = (v) => (v == null ? '–' : `${v} %`);
	const t = rep.totals;
	assert.deepEqual((await cells('t-totals')).map((r) => r.slice(0, 2)), [['Banner impressions', n(t.impressions)], ['Decisions', n(t.decisions)],
		['Opt-in', n(t.opt_in)], ['Opt-out', n(t.opt_out)],
		['Partial', n(t.partial)], ['Acknowledge', n(t.acknowledge)], ['Visitors', n(t.visitors)]]);
	assert.deepEqual((await cells('t-daily')).at(-1).slice(0, 3), [day, n(rep.daily.at(-1).impressions), n(rep.daily.at(-1).decisions)]);
	for (const k of ['by_region', 'by_device', 'by_browser', 'by_position', 'by_language']) {
		assert.deepEqual(await cells('t-' + k), rep[k].map((x) => [x.key ?? 'not sent', ...(k === 'by_language' ? [n(x.impressions)] : []), n(x.decisions),
			p(x.opt_in_percent), p(x.opt_out_percent), p(x.partial_percent), p(x.acknowledge_percent)]), k);
	}
	assert.ok(rep.by_language.some((x) => x.key === 'en'), 'the generated log\'s language is reported');
	const o = rep.outcomes;
	const outcomes = [['Opt-in', o.opt_in, o.opt_in_percent], ['Opt-out', o.opt_out, o.opt_out_percent], ['Partial', o.partial, o.partial_percent],
		['Acknowledge', o.acknowledge, o.acknowledge_percent], ['No decision', o.no_decision, o.no_decision_percent]];
	assert.ok(o.no_decision > 0 && o.opt_out > 0, 'the log has refusals and visitors without a decision');
	assert.deepEqual(await cells('t-outcomes'), [...outcomes, ['Decided', o.decided, o.decided_percent], ['Asked', o.asked, null],
		['Returning, decided before', o.returning, null]].map(([w, v, s]) => [w, n(v), p(s)]), 'no decision apart from the decisions');
	// The charts' own figures: what uPlot was given is report --json's.
	await page.waitForFunction(() => window.charts && window.charts.by_language && window.charts.outcomes);
	const charts = await page.evaluate(() => window.charts);
	assert.deepEqual(charts.outcomes, { series: ['Share of visitors asked'], data: [outcomes.map((x) => x[2])] }, 'the outcomes chart');
	// Stacked shares: each series drawn is its share plus those below it,
	// tallest first; taken apart again, they are the report's shares.
	const lang = charts.by_language;
	assert.deepEqual(lang.series, ['Acknowledge', 'Partial', 'Opt-out', 'Opt-in']);
	const shares = lang.data.slice().reverse().map((cum, i, all) => cum.map((v, j) => (v == null ? null : Math.round(10 * (v - (i ? all[i - 1][j] : 0))) / 10)));
	assert.deepEqual(shares, ['opt_in', 'opt_out', 'partial', 'acknowledge'].map((a) => rep.by_language.map((x) => x[a + '_percent'])),
		'the language chart\'s shares are report --json\'s');
	assert.deepEqual(charts.totals.data, [[t.impressions, t.decisions, t.opt_in, t.opt_out, t.partial, t.acknowledge]], 'the totals chart');
	assert.deepEqual(await cells('t-categories'), rep.categories.map((x) => [x.category, n(x.visitors), n(x.allowed), p(x.percent)]));
	assert.deepEqual(await cells('t-gpc'), [['Sent', n(rep.gpc.sent)], ['Not sent', n(rep.gpc.not_sent)], ['Not recorded', n(rep.gpc.not_recorded)], ['Share sent', p(rep.gpc.percent)]]);
	assert.equal(await page.locator('.chart canvas').count() >= 7, true, 'the charts are drawn');
	await cleanAxe('statistics');
	// Kept for a person to look at, as t0620 keeps the report's.
	const art = path.join(h.TOP, 'build/test-artifacts/admin');
	mkdirSync(art, { recursive: true });
	for (const scheme of ['light', 'dark']) {
		await page.emulateMedia({ colorScheme: scheme });
		await page.reload();
		await page.locator('.chart canvas').nth(4).waitFor();
		await page.screenshot({ path: path.join(art, `stats-${scheme}.png`), fullPage: true });
	}
	await page.emulateMedia({ colorScheme: 'light' });
	assert.deepEqual(page.csp, [], 'nothing uPlot does is refused by the CSP');
	assert.deepEqual(page.errors, []);
});

test('backup: a SQLite file, after re-authentication, for owners of every site', async () => {
	await go('#/backup', 'Backup');
	await cleanAxe('backup');
	const dl = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download a backup' }).click();
	await reauth();
	const file = readFileSync(await (await dl).path());
	assert.equal(file.subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
});

// A new page signed in as a new account of ROLE on the site (added by
// consentctl), showing the site's trackers.
async function signedInAs(user, role) {
	execFileSync(path.join(h.BUILD, 'bin/consentctl'), ['user', 'add', user, '--role', role, '--site', 'shop', '--password-stdin'],
		{ input: `${user} long enough password 7\n`, env: { ...process.env, CONSENT_DB: srv.db } });
	const p = await h.newPage(browser);
	await p.goto(srv.admin);
	await p.getByLabel('User name').fill(user);
	await p.getByLabel('Password', { exact: true }).fill(`${user} long enough password 7`);
	await p.getByRole('button', { name: 'Sign in' }).click();
	await p.locator('h1', { hasText: 'Sites' }).waitFor();
	await p.goto(srv.admin + '#/sites/shop/trackers');
	await p.getByTestId('inventory').waitFor();
	return p;
}

test('an editor starts syncs, publishes rules and seals, without a link to the log or the receipts', async () => {
	const p = await signedInAs('ed', 'editor');
	assert.deepEqual(await p.getByRole('navigation', { name: 'Site' }).locator('a').allTextContents(),
		['Settings', 'Banner editor', 'Versions', 'Trackers', 'Proof', 'Statistics']);
	assert.equal(await p.getByRole('button', { name: 'Start a sync' }).count(), 1);
	await p.goto(srv.admin + '#/sites/shop/proof');
	await p.getByTestId('proof-counts').waitFor();
	assert.equal(await p.getByRole('button', { name: 'Seal now' }).count(), 1);
	assert.equal(await p.getByRole('button', { name: 'Purge…' }).count(), 0, 'purging is the owners\'');
	await p.goto(srv.admin + '#/sites/shop/receipt');
	await p.getByText('Only the site\'s owners look up a visitor\'s entries.').waitFor();
	assert.equal(await p.getByLabel('Visitor id').count(), 0);
	assert.deepEqual(p.errors, []);
	await p.context().close();
});

test('a viewer sees the statistics and the inventory, no link to the log and no row of it', async () => {
	const p = await signedInAs('vi', 'viewer');
	const nav = await p.getByRole('navigation', { name: 'Site' }).locator('a').allTextContents();
	assert.deepEqual(nav, ['Settings', 'Banner editor', 'Versions', 'Trackers', 'Proof', 'Statistics']);
	assert.equal(await p.getByRole('button', { name: 'Start a sync' }).count(), 0);
	assert.equal(await p.getByRole('button', { name: 'Publish these rules' }).count(), 0);
	await p.goto(srv.admin + '#/sites/shop/stats');
	await p.getByTestId('t-totals').waitFor();
	await p.goto(srv.admin + '#/sites/shop/log');
	await p.getByText('Only the site\'s owners see the entries of the log.').waitFor();
	assert.equal(await p.getByTestId('entries').count(), 0);
	await cleanAxe('the log, a viewer', p);
	const st = await p.evaluate(async () => (await fetch('/admin/api/sites/shop/consents')).status);
	assert.equal(st, 403, 'the server refuses the rows');
	await p.goto(srv.admin + '#/sites/shop/proof');
	await p.getByTestId('proof-counts').waitFor();
	assert.equal(await p.getByRole('button', { name: 'Seal now' }).count(), 0);
	assert.deepEqual(p.errors, []);
	await p.context().close();
});

test('purge, 40 days later (the program\'s test clock): a dry run names what goes, then batches with their progress; the log still verifies', async () => {
	const later = Date.now() / 1000 + 40 * 86400;
	srv.setNow(later);
	try {
		const left = srv.ctl('consent', 'export', 'shop', '--format', 'jsonl').trim().split('\n').length;
		await page.goto(srv.admin + '#/sites/shop/proof');
		await page.getByLabel('User name').fill(OWNER);
		await page.getByLabel('Password', { exact: true }).fill(PW);
		await page.getByLabel('Code from the authenticator app or a recovery code').fill(h.totp(secret, later));
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.goto(srv.admin + '#/sites/shop/proof');
		await page.getByRole('button', { name: 'Purge…' }).click();
		await page.getByTestId('dry-run').filter({ hasText: new RegExp(`^${left} entries older than`) }).waitFor();
		await page.getByRole('dialog', { name: 'Purge old entries?' }).getByRole('button', { name: 'Purge' }).click();
		await page.getByTestId('purge').filter({ hasText: `${left} entries purged.` }).waitFor();
		assert.equal(await page.locator('[data-testid=purge] progress').getAttribute('value'), String(left));
		await cleanAxe('purged');
		assert.equal(srv.ctl('consent', 'export', 'shop', '--format', 'jsonl').trim(), '', 'nothing is left');
		assert.equal(JSON.parse(srv.ctl('consent', 'verify', 'shop', '--json')).ok, true, 'the purged entries left their leaves');
	} finally {
		srv.setNow(null);
	}
});

test('server logs: no CGI error, no sanitizer report; no script error or CSP refusal in the page', () => {
	// The offending lines alone, so that a failure says what they were.
	assert.deepEqual(srv.logs().split('\n').filter((l) => /Sanitizer|runtime error:|\(mod_cgi\.c/.test(l)), []);
	assert.deepEqual(page.errors, []);
	assert.deepEqual(page.csp, []);
});
