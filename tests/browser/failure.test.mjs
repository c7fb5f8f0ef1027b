// failure.test.mjs: SDK.md 2, where the configuration comes from and what
// happens without one: 404 site, paused site, cap exceeded, network error.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let srv, browser;
before(async () => { srv = await h.startServer(); browser = await h.launch(); srv.publish(h.modelConfig('opt_in')); });
after(async () => { await browser?.close(); await srv?.stop(); });

// No banner, nothing allowed, get() says why.
async function assertNothing(page, st, label) {
	await h.sleep(300);
	assert.equal(await h.isShown(h.banner(page)), false, `${label}: no banner`);
	assert.equal(st.decided, false, `${label}: not decided`);
	for (const id of ['necessary', 'functional', 'analytics', 'marketing', 'anything']) {
		assert.equal(await page.evaluate((i) => Consent.allowed(i), id), false, `${label}: allowed(${id}) is false`);
	}
}

test('unknown site (404): no banner, nothing allowed, error set', async () => {
	const page = await h.newPage(browser);
	const st = await h.visit(page, srv.page({ attrs: { 'data-site-key': 'nosuch' } }));
	await assertNothing(page, st, '404');
	assert.equal(st.disabled, false);
	assert.equal(typeof st.error, 'string');
	assert.match(st.error, /404|not found/i);
	await page.context().close();
});

test('paused site: no banner, nothing allowed, error set', async () => {
	srv.pause();
	try {
		const page = await h.newPage(browser);
		const st = await h.visit(page, srv.page());
		await assertNothing(page, st, 'paused');
		assert.equal(typeof st.error, 'string');
		assert.ok(st.error.length > 0);
		await page.context().close();
	} finally { srv.resume(); }
});

test('cap exceeded (free tier, --mau-cap 0): disabled body, no banner, nothing allowed, disabled true', async () => {
	srv.setTier('free', 0);
	try {
		const page = await h.newPage(browser);
		const st = await h.visit(page, srv.page());
		await assertNothing(page, st, 'cap');
		assert.equal(st.disabled, true);
		assert.equal(h.apiRequests(page, 'consent').length, 0, 'no impression is sent');
		await page.context().close();
	} finally { srv.setTier('paid', 'none'); }
});

test('network error on the config request: no banner, nothing allowed, error "network"', async () => {
	const page = await h.newPage(browser);
	await page.route('**/functions/v1/config*', (r) => r.abort('connectionrefused'));
	const st = await h.visit(page, srv.page());
	await assertNothing(page, st, 'network');
	assert.match(String(st.error), /network/);
	await page.context().close();
});

test('a valid stored decision keeps applying when the config fails (decided true, its categories)', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await page.evaluate(() => Consent.save({ analytics: true }));
	await page.route('**/functions/v1/config*', (r) => r.abort('connectionrefused'));
	const st = await h.visit(page, srv.page());
	assert.equal(st.decided, true);
	assert.ok(st.error, 'the failure is still reported');
	assert.equal(await page.evaluate(() => Consent.allowed('analytics')), true);
	assert.equal(await page.evaluate(() => Consent.allowed('marketing')), false);
	assert.equal(await h.isShown(h.banner(page)), false);
	await page.context().close();
});

test('a slow config answer: Consent.ready waits for it, the banner comes after it', async () => {
	const page = await h.newPage(browser);
	await page.route('**/functions/v1/config*', async (r) => { await h.sleep(1200); await r.continue(); });
	const t0 = Date.now();
	const st = await h.visit(page, srv.page());
	assert.ok(Date.now() - t0 >= 1100, 'ready resolved after the answer');
	assert.equal(st.error, null);
	await h.banner(page).waitFor({ state: 'visible' });
	await page.context().close();
});

// The config endpoint's own answer, as a static file: what a CDN would hold.
async function answer(mutate) {
	const r = await fetch(`http://127.0.0.1:${srv.port}/functions/v1/config?site_key=t1`, { headers: { Origin: srv.site } });
	const body = await r.json();
	mutate(body);
	return JSON.stringify(body);
}

test('data-config-url is asked first; the endpoint is not asked when it answers', async () => {
	const url = srv.file('a.json', await answer((b) => { b.resolvedContent.title = 'From the config URL'; }));
	const page = await h.newPage(browser);
	await h.visit(page, srv.page({ attrs: { 'data-config-url': url } }));
	await h.banner(page).getByRole('heading', { name: 'From the config URL' }).waitFor();
	assert.equal(h.apiRequests(page, 'config').length, 0, 'no request to the endpoint');
	await page.context().close();
});

test('data-config-url failing (404, body without config, network error): the endpoint answers instead', async () => {
	const bad = srv.file('bad.json', JSON.stringify({ hello: 'world' }));
	for (const [label, url, route] of [['404', `${srv.site}/cfg/missing.json`, false], ['no config', bad, false],
		['network', `${srv.site}/cfg/net.json`, true]]) {
		const page = await h.newPage(browser);
		if (route) await page.route('**/cfg/net.json', (r) => r.abort('connectionreset'));
		const st = await h.visit(page, srv.page({ attrs: { 'data-config-url': url } }));
		assert.equal(st.error, null, `${label}: no error`);
		await h.banner(page).getByRole('heading', { name: 'We value your privacy' }).waitFor();
		assert.equal(h.apiRequests(page, 'config').length, 1, `${label}: one request to the endpoint`);
		assert.ok(page.requests.some((r) => r.url() === url), `${label}: the config URL was asked`);
		await page.context().close();
	}
});

test('config requests send no credentials; lang and region are passed on', async () => {
	const page = await h.newPage(browser);
	await page.context().addCookies([{ name: 'tracking', value: 'x', domain: 'api.test', path: '/' }]);
	await h.visit(page, srv.page({ attrs: { 'data-lang': 'de', 'data-region': 'gdpr' } }));
	const reqs = h.apiRequests(page, 'config');
	assert.equal(reqs.length, 1);
	const u = new URL(reqs[0].url());
	assert.equal(u.searchParams.get('site_key'), 't1');
	assert.equal(u.searchParams.get('lang'), 'de');
	assert.equal(u.searchParams.get('region'), 'gdpr');
	const hdrs = await reqs[0].allHeaders();
	assert.equal(hdrs.cookie, undefined, 'no Cookie header');
	await page.context().close();
});

test('data-api defaults to the script\'s origin; a given data-api is used', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	assert.equal(new URL(h.apiRequests(page, 'config')[0].url()).origin, srv.api);
	const other = `http://other.test:${srv.port}`;
	await h.visit(page, srv.page({ attrs: { 'data-api': other } }));
	const last = page.requests.filter((r) => r.url().includes('/functions/v1/config')).at(-1);
	assert.equal(new URL(last.url()).origin, other);
	await page.context().close();
});
