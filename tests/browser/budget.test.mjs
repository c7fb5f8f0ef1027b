// budget.test.mjs: SDK.md 1 and 10, size and requests: at most 10 KB gzip,
// one config request per page view, the consent entries expected and
// nothing else loaded.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import * as h from './harness.mjs';

let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); srv.publish(h.modelConfig('opt_in')); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('size: gzip -9 of build/sdk/consent.js is at most 10240 bytes', () => {
	const raw = readFileSync(h.SDK);
	let size;
	try {
		size = execFileSync('sh', ['-c', 'gzip -9 -c "$1" | wc -c', 'sh', h.SDK], { encoding: 'utf8' }).trim() | 0;
	} catch {
		size = gzipSync(raw, { level: 9 }).length;
	}
	assert.ok(size > 1000, `a real build (${size} bytes)`);
	assert.ok(size <= 10240, `gzip -9: ${size} bytes, budget 10240`);
});

test('the built file is one minified script carrying the project\'s VERSION', () => {
	const js = readFileSync(h.SDK, 'utf8');
	assert.ok(js.includes(JSON.stringify(h.VERSION)), `"${h.VERSION}" is in the build`);
	assert.ok(!/\n\s{2,}(const|let|function|if|return)\b/.test(js), 'minified: no indented source lines');
	assert.doesNotMatch(js, /\bimport\s*[({'"]|\brequire\(/, 'one bundle, nothing loaded at run time');
	assert.match(js, /\[data-theme\]\{--bg:/, 'the stylesheet bundled minified (build/sdk/style.min.css)');
	assert.ok(!js.includes('style.css:'), 'without its comments');
});

// Requests of a page view, by kind.
function kinds(page, from = 0) {
	const out = { config: 0, consent: 0, scripts: 0, sdk: 0, other: [] };
	for (const r of page.requests.slice(from)) {
		const u = new URL(r.url());
		if (u.pathname === '/functions/v1/config') out.config++;
		else if (u.pathname === '/functions/v1/consent') out.consent++;
		else if (u.pathname === '/functions/v1/scripts') out.scripts++;
		else if (u.pathname === '/sdk/consent.js') out.sdk++;
		else if (!/^\/(p|csp)\/\d+\.html$/.test(u.pathname)) out.other.push(`${r.resourceType()} ${r.url()}`);
	}
	return out;
}

test('requests: a first view is one config request and one impression; a decision one entry; a reload one config request and nothing else', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(500);
	let k = kinds(page);
	assert.equal(k.config, 1, 'one config request');
	assert.equal(k.consent, 1, 'one impression');
	assert.equal(k.sdk, 1);
	assert.deepEqual(k.other, [], 'nothing else: no font, stylesheet, image or second script');
	let n = page.requests.length;
	await h.button(page, 'Accept all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await h.sleep(500);
	k = kinds(page, n);
	assert.equal(k.consent, 1, 'one entry for the decision');
	assert.equal(k.config, 0, 'no new config request');
	n = page.requests.length;
	await h.visit(page, srv.page());
	await h.sleep(500);
	k = kinds(page, n);
	assert.equal(k.config, 1, 'one config request per page view');
	assert.equal(k.consent, 0, 'no entry for a returning visitor already counted this month');
	assert.deepEqual(k.other, []);
	await page.context().close();
});

test('consent entries are POSTed by fetch with keepalive and a JSON body, without a CORS preflight', async () => {
	const page = await h.newPage(browser);
	await page.addInitScript(() => {
		const f = window.fetch;
		window.fetchLog = [];
		window.fetch = function (url, init) {
			window.fetchLog.push({ url: String(url), keepalive: !!(init && init.keepalive), method: init && init.method });
			return f.apply(this, arguments);
		};
	});
	const methods = [];
	page.context().on('request', (r) => { if (r.url().includes('/functions/v1/')) methods.push(r.method()); });
	await h.visit(page, srv.page());
	await h.button(page, 'Reject all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await h.sleep(500);
	assert.ok(!methods.includes('OPTIONS'), `no preflight: ${methods.join(' ')}`);
	const posts = h.apiRequests(page, 'consent');
	assert.equal(posts.length, 2);
	for (const p of posts) {
		assert.equal(p.method(), 'POST');
		const body = JSON.parse(p.postData());
		assert.equal(body.site_key, 't1');
	}
	const log = (await page.evaluate(() => window.fetchLog)).filter((x) => x.url.includes('/functions/v1/consent'));
	assert.equal(log.length, 2, 'both entries went through fetch');
	for (const x of log) assert.equal(x.keepalive, true, 'keepalive');
	await page.context().close();
});

test('a failing consent request (5xx) is retried once, a 4xx never', async () => {
	for (const [status, want] of [[503, 2], [400, 1]]) {
		const page = await h.newPage(browser);
		let n = 0;
		await page.route('**/functions/v1/consent', (r) => { n++; r.fulfill({ status, body: '{"error":"x"}', headers: { 'Access-Control-Allow-Origin': '*' } }); });
		await h.visit(page, srv.page());
		await h.banner(page).waitFor({ state: 'visible' });
		const end = Date.now() + 5000;
		while (n < want && Date.now() < end) await h.sleep(50);
		await h.sleep(1500);
		assert.equal(n, want, `${status}: ${n} attempts of the impression`);
		await page.context().close();
	}
});

test('a decision stored but not yet answered when the page unloads is not sent again', async () => {
	// The keepalive request outlives the page; the page sees it fail as it
	// goes, which is not a network error to retry.
	const slow = await h.startServer({ holdConsent: true });
	try {
		slow.publish(h.modelConfig('opt_in'));
		const page = await h.newPage(browser);
		await h.visit(page, slow.page());
		await h.banner(page).waitFor({ state: 'visible' });
		await h.visitorEntries(slow, page, 1);
		slow.holdConsent(2000);
		await h.button(page, 'Accept all').click();
		const stored = await h.visitorEntries(slow, page, 2);
		assert.equal(stored.length, 2, 'the decision is stored while its answer is held');
		slow.holdConsent(0);
		await h.visit(page, slow.page());
		await h.sleep(3000);
		const e = await h.visitorEntries(slow, page, 0);
		assert.deepEqual(e.map((x) => `${x.event_type}/${x.interaction}`), ['impression/undefined', 'initial/accept_all'],
			'one entry per decision');
		await page.context().close();
	} finally { await slow.stop(); }
});

test('server logs: no sanitizer report, no CGI error', async () => {
	assert.doesNotMatch(srv.logs(), /Sanitizer|runtime error:/);
});
