// hold.test.mjs: SDK.md 5, holding scripts and requests until consent, in
// a real Chromium, against third-party hosts of tracker.mjs (tracker.test
// matched by an analytics rule, ads.test by a marketing one, free.test by
// none).  "Requested" is what the tracker server saw; "ran" is window.ran.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { startTracker, ran, counts, withRules, waitRan } from './tracker.mjs';

let srv, browser, tr;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker()]);
	browser = await h.launch();
	srv.publish(withRules(h.modelConfig('opt_in')));
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

let seq = 0;
const uniq = (s) => `${s}${++seq}`;
const QUIET = 300; // ms to let anything that is not held run or be requested

// Every way of inserting a script by code: SDK.md 5's list (and
// replaceChild, insertAdjacentElement), each twice: with src set by
// property (by setAttribute for one appendChild), and with src set by
// setAttributeNS, which only the insertion itself can catch; and src given
// after insertion, by property and by setAttribute.
const METHODS = ['appendChild', 'insertBefore', 'append', 'prepend', 'before', 'after', 'replaceWith',
	'replaceChild', 'insertAdjacentElement'];
const PATHS = [...METHODS, 'setAttribute', ...METHODS.map((m) => `${m}NS`), 'srcAfterInsertProp', 'srcAfterInsertAttr'];

// HTML of a container and an inline script that inserts one tracker script
// from HOST per path of PATHS (named PREFIX-PATH); the first in document
// order (prepend) answers slowly, so that scripts released without waiting
// for each other would run out of order.
function codeInserted(prefix, host) {
	const names = {};
	const urls = {};
	for (const p of PATHS) {
		names[p] = `${prefix}-${p}`;
		urls[p] = tr.js(host, names[p], /^prepend/.test(p) ? 'delay=250' : '');
	}
	const id = `box-${prefix}`;
	const html = `<div id="${id}"><span class="a1"></span><span class="a2"></span><span class="a3"></span><span class="a4"></span><span class="a5"></span><span class="a6"></span></div>
<script>
(function () {
	var U = ${JSON.stringify(urls)};
	var box = document.getElementById(${JSON.stringify(id)});
	var mk = function (k, how) {
		var s = document.createElement('script');
		s.setAttribute('data-t', k);
		if (how === 'attr') s.setAttribute('src', U[k]);
		else if (how === 'ns') s.setAttributeNS(null, 'src', U[k]);
		else s.src = U[k];
		return s;
	};
	var span = function () { var x = document.createElement('span'); box.appendChild(x); return x; };
	var insert = function (m, s) {
		switch (m) {
		case 'appendChild': box.appendChild(s); break;
		case 'insertBefore': box.insertBefore(s, box.firstChild); break;
		case 'append': box.append(s); break;
		case 'prepend': box.prepend(s); break;
		case 'before': span().before(s); break;
		case 'after': span().after(s); break;
		case 'replaceWith': span().replaceWith(s); break;
		case 'replaceChild': box.replaceChild(s, span()); break;
		case 'insertAdjacentElement': span().insertAdjacentElement('afterend', s); break;
		}
	};
	${JSON.stringify(METHODS)}.forEach(function (m) { insert(m, mk(m)); });
	box.appendChild(mk('setAttribute', 'attr'));
	${JSON.stringify(METHODS)}.forEach(function (m) { insert(m, mk(m + 'NS', 'ns')); });
	var s = document.createElement('script');
	s.setAttribute('data-t', 'srcAfterInsertProp');
	box.appendChild(s);
	s.src = U.srcAfterInsertProp;
	s = document.createElement('script');
	s.setAttribute('data-t', 'srcAfterInsertAttr');
	box.appendChild(s);
	s.setAttribute('src', U.srcAfterInsertAttr);
})();
</script>`;
	return { html, names, list: PATHS.map((p) => names[p]), id };
}

// Parser-inserted tracker scripts: N of them from HOST, the first slow.
function parserInserted(prefix, host, n = 3) {
	const list = [];
	let html = '';
	for (let i = 1; i <= n; i++) {
		const name = `${prefix}-p${i}`;
		list.push(name);
		html += `<script src="${tr.js(host, name, i === 1 ? 'delay=250' : '')}"></script>\n`;
	}
	return { html, list };
}

// Site-marked elements of category CAT: an inline script, one with src (a
// host no rule matches: the mark alone holds it), another inline one, an
// iframe and an image.
function marked(prefix, cat = 'analytics') {
	const n = (s) => `${prefix}-${s}`;
	const push = (s) => `(window.ran = window.ran || []).push(${JSON.stringify(n(s))})`;
	const html = `<script type="text/plain" data-consent="${cat}">${push('m1')}</script>
<script type="text/plain" data-consent="${cat}" src="${tr.js('free.test', n('m2'), 'delay=250')}"></script>
<script type="text/plain" data-consent="${cat}">${push('m3')}</script>
<iframe id="${n('frame')}" data-consent="${cat}" data-src="${tr.frame('tracker.test', n('f1'))}"></iframe>
<img id="${n('img')}" alt="" data-consent="${cat}" data-src="${tr.px('tracker.test', n('i1'))}">`;
	return { html, scripts: [n('m1'), n('m2'), n('m3')], frame: n('f1'), img: n('i1') };
}


const only = (list, names) => list.filter((x) => names.includes(x));
const hitsOf = (names) => Object.fromEntries(names.map((x) => [x, tr.hits(x)]));
const zeros = (names) => Object.fromEntries(names.map((x) => [x, 0]));
const ones = (names) => Object.fromEntries(names.map((x) => [x, 1]));

// Requests made by code to HOST, each of the five kinds, named PREFIX-KIND;
// the outcome the page saw of each.
const REQ = ['fetch', 'xhr', 'beacon', 'image', 'imgInserted', 'imgAttr'];
async function requestsByCode(page, prefix, host) {
	const u = {
		fetch: tr.b(host, `${prefix}-fetch`), xhr: tr.b(host, `${prefix}-xhr`), beacon: tr.b(host, `${prefix}-beacon`),
		image: tr.px(host, `${prefix}-image`), imgInserted: tr.px(host, `${prefix}-imgInserted`),
		imgAttr: tr.px(host, `${prefix}-imgAttr`),
	};
	const out = await page.evaluate(async (u) => {
		const r = {};
		try { const res = await fetch(u.fetch, { method: 'POST', body: 'x' }); r.fetch = 'status ' + res.status; } catch (e) { r.fetch = 'rejected'; }
		r.xhr = await new Promise((res) => {
			const x = new XMLHttpRequest();
			x.onload = () => res('load');
			x.onerror = () => res('error');
			x.open('GET', u.xhr);
			x.send();
		});
		r.beacon = navigator.sendBeacon(u.beacon, 'x');
		new Image().src = u.image;
		const i = document.createElement('img');
		i.src = u.imgInserted;
		document.body.appendChild(i);
		const j = document.createElement('img');
		document.body.appendChild(j);
		j.setAttribute('src', u.imgAttr);
		return r;
	}, u);
	await h.sleep(QUIET);
	return { out, names: REQ.map((k) => `${prefix}-${k}`) };
}

test('code-inserted scripts, every insertion path: neither requested nor run before consent; each runs once after Consent.acceptAll(), in document order; a later decision runs none again', async () => {
	const c = codeInserted(uniq('c'), 'tracker.test');
	const free = uniq('free');
	const page = await h.newPage(browser);
	const url = srv.page({ body: c.html + `<script>var f = document.createElement('script'); f.src = ${JSON.stringify(tr.js('free.test', free))}; document.body.appendChild(f);</script>` });
	const st = await h.visit(page, url);
	assert.equal(st.categories.analytics, false);
	await waitRan(page, [free], 2000);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [free], 'before consent only the script no rule matches has run');
	assert.deepEqual(hitsOf(c.list), zeros(c.list), 'no held script was even requested');
	await page.evaluate(() => Consent.acceptAll());
	await waitRan(page, c.list);
	await h.sleep(QUIET);
	const r = only(await ran(page), c.list);
	assert.deepEqual(counts(r), ones(c.list), 'each ran exactly once');
	const order = await page.evaluate((id) => [...document.querySelectorAll(`#${id} script[data-t]`)].map((s) => s.getAttribute('data-t')), c.id);
	assert.deepEqual(r, order.map((p) => c.names[p]), 'they ran in document order');
	assert.deepEqual(hitsOf(c.list), ones(c.list), 'each requested once');
	await page.evaluate(() => Consent.save({ analytics: true, functional: true }));
	await h.sleep(QUIET);
	assert.deepEqual(counts(only(await ran(page), c.list)), ones(c.list), 'a second decision runs nothing again');
	assert.deepEqual(page.errors, []);
	await page.context().close();
});

test('banner "Accept all" button: parser-inserted, code-inserted and site-marked scripts each run once; requests by code go through after it, the earlier ones not replayed', async () => {
	const p = parserInserted(uniq('b'), 'tracker.test', 2);
	const c = codeInserted(uniq('b'), 'tracker.test');
	const m = marked(uniq('b'));
	const all = [...p.list, ...c.list, ...m.scripts];
	const page = await h.newPage(browser);
	await h.visit(page, srv.page({ head: p.html, body: c.html + m.html }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'nothing ran before the button');
	const q = await requestsByCode(page, uniq('bq'), 'tracker.test');
	assert.deepEqual(hitsOf(q.names), zeros(q.names), 'requests by code stopped before the button');
	await h.button(page, 'Accept all').click();
	await waitRan(page, all);
	await h.sleep(QUIET);
	assert.deepEqual(counts(await ran(page)), ones(all));
	assert.deepEqual(hitsOf([...c.list, m.frame, m.img]), ones([...c.list, m.frame, m.img]));
	assert.deepEqual(hitsOf(q.names), zeros(q.names), 'not replayed after the button');
	const q2 = await requestsByCode(page, uniq('bq'), 'tracker.test');
	assert.deepEqual(q2.out, { fetch: 'status 204', xhr: 'load', beacon: true });
	assert.deepEqual(hitsOf(q2.names), ones(q2.names), 'requests by code go through after the button');
	await page.context().close();
});

test('refusal (banner "Reject all"): nothing held is requested or run, then or on the next page view', async () => {
	const pre = uniq('r');
	const p = parserInserted(pre, 'tracker.test', 2);
	const c = codeInserted(pre, 'tracker.test');
	const m = marked(pre);
	const page = await h.newPage(browser);
	const url = srv.page({ head: p.html, body: c.html + m.html });
	await h.visit(page, url);
	await h.button(page, 'Reject all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'nothing ran after the refusal');
	const reqd = [...c.list, m.frame, m.img, m.scripts[1]];
	assert.deepEqual(hitsOf(reqd), zeros(reqd), 'nothing inserted by code or marked was requested');
	const pHits = tr.hits(p.list[0]);
	await page.reload();
	const st = await h.ready(page);
	assert.equal(st.decided, true);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'nothing ran on the next page view');
	assert.deepEqual(hitsOf(reqd), zeros(reqd), 'nor was it requested');
	console.log(`refused visitor, next page view: parser-inserted tracker requested ${tr.hits(p.list[0]) - pHits} time(s) (preload scanner), not run`);
	await page.context().close();
});

test('withdrawal: a refusal after acceptance reloads the page, and nothing withdrawn runs or is requested again there', async () => {
	const pre = uniq('w');
	const p = parserInserted(pre, 'tracker.test', 2);
	const c = codeInserted(pre, 'tracker.test');
	const m = marked(pre);
	const all = [...p.list, ...c.list, ...m.scripts];
	const page = await h.newPage(browser);
	await h.visit(page, srv.page({ head: p.html, body: c.html + m.html }));
	await page.evaluate(() => Consent.acceptAll());
	await waitRan(page, all);
	assert.deepEqual(counts(await ran(page)), ones(all), 'all ran once after acceptance');
	const before1 = hitsOf([...c.list, m.frame, m.img]);
	await page.evaluate(() => { window.sameView = true; });
	const nav = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 5000 }).catch(() => null);
	await page.evaluate(() => { Consent.rejectAll(); });
	assert.ok(await nav, 'the page navigated (reloaded) after the withdrawal');
	const st = await h.ready(page);
	assert.equal(await page.evaluate(() => window.sameView), undefined, 'a new page view');
	assert.equal(st.decided, true);
	assert.equal(st.categories.analytics, false);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'nothing ran on the reloaded page');
	assert.deepEqual(hitsOf([...c.list, m.frame, m.img]), before1, 'nothing inserted by code or marked was requested again');
	const q = await requestsByCode(page, uniq('w'), 'tracker.test');
	assert.deepEqual(hitsOf(q.names), zeros(q.names), 'requests by code are stopped on the reloaded page');
	await page.context().close();
});

test('a withdrawal through the preferences dialog reloads the page too', async () => {
	const pre = uniq('wd');
	const c = codeInserted(pre, 'tracker.test');
	const page = await h.newPage(browser);
	await h.visit(page, srv.page({ body: c.html }));
	await page.evaluate(() => Consent.acceptAll());
	await waitRan(page, c.list);
	await page.evaluate(() => { window.sameView = true; Consent.showPreferences(); });
	await h.prefs(page).waitFor({ state: 'visible' });
	await h.prefs(page).locator('input[data-category="analytics"]').uncheck();
	const nav = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 5000 }).catch(() => null);
	await h.prefs(page).getByRole('button').filter({ hasText: /save/i }).first().click();
	assert.ok(await nav, 'the page reloaded');
	await h.ready(page);
	assert.equal(await page.evaluate(() => window.sameView), undefined);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), []);
	assert.deepEqual(hitsOf(c.list), ones(c.list), 'requested once, before the withdrawal only');
	await page.context().close();
});

// Whether consent.js came from the browser's cache on this page view, by
// the DevTools protocol's network events (a memory cache hit is
// requestServedFromCache, a disk cache hit fromDiskCache).
async function sdkCacheWatch(page) {
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Network.enable');
	const ids = new Set();
	const seen = { requested: false, cached: false };
	cdp.on('Network.requestWillBeSent', (e) => {
		if (e.request.url.endsWith('/sdk/consent.js')) { ids.add(e.requestId); seen.requested = true; }
	});
	cdp.on('Network.requestServedFromCache', (e) => { if (ids.has(e.requestId)) seen.cached = true; });
	cdp.on('Network.responseReceived', (e) => { if (ids.has(e.requestId) && e.response.fromDiskCache) seen.cached = true; });
	return seen;
}

test('parser-inserted scripts after the SDK (first view, consent.js from the network): not run before consent; run once, in document order, after acceptance', async () => {
	const p = parserInserted(uniq('p'), 'tracker.test', 3);
	const body = parserInserted(uniq('pb'), 'tracker.test', 1);
	const list = [...p.list, ...body.list];
	const page = await h.newPage(browser);
	const seen = await sdkCacheWatch(page);
	await h.visit(page, srv.page({ head: p.html, body: body.html }));
	assert.ok(seen.requested && !seen.cached, 'consent.js came from the network');
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'no parser-inserted tracker ran before consent');
	const early = hitsOf(list);
	console.log(`parser-inserted, first view (consent.js from the cache: ${seen.cached}): requested before consent: ${JSON.stringify(early)}`);
	await page.evaluate(() => Consent.acceptAll());
	await waitRan(page, list);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), list, 'each ran once, in document order');
	console.log(`parser-inserted, first view: requests in all after acceptance: ${JSON.stringify(hitsOf(list))}`);
	await page.context().close();
});

test('parser-inserted scripts, second page view (consent.js cached, no decision yet): not run before consent; run once after acceptance', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	const seen = await sdkCacheWatch(page);
	const p = parserInserted(uniq('pc'), 'tracker.test', 3);
	await h.visit(page, srv.page({ head: p.html }));
	assert.ok(seen.cached, 'consent.js came from the cache');
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'no parser-inserted tracker ran before consent');
	const early = hitsOf(p.list);
	console.log(`parser-inserted, cached view (consent.js from the cache: ${seen.cached}): requested before consent: ${JSON.stringify(early)}`);
	await page.evaluate(() => Consent.acceptAll());
	await waitRan(page, p.list);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), p.list);
	await page.context().close();
});

test('site-marked elements: inline and src scripts, iframe and image wait for their category, then run (load) once in document order', async () => {
	const pre = uniq('m');
	const m = marked(pre);
	const mk = marked(uniq('mk'), 'marketing');
	const page = await h.newPage(browser);
	await h.visit(page, srv.page({ body: m.html + mk.html }));
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [], 'no marked script ran before consent');
	const reqd = [m.scripts[1], m.frame, m.img, mk.scripts[1], mk.frame, mk.img];
	assert.deepEqual(hitsOf(reqd), zeros(reqd), 'nothing marked was requested before consent');
	await page.evaluate(() => Consent.save({ analytics: true }));
	await waitRan(page, m.scripts);
	await page.waitForFunction((id) => document.getElementById(id).complete, `${pre}-img`, { timeout: 3000 }).catch(() => {});
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), m.scripts, 'the analytics ones ran once, in document order; the marketing ones not');
	assert.deepEqual(hitsOf(reqd), { ...ones([m.scripts[1], m.frame, m.img]), ...zeros([mk.scripts[1], mk.frame, mk.img]) });
	assert.equal(await page.evaluate((id) => document.getElementById(id).naturalWidth, `${pre}-img`), 1, 'the image loaded');
	await page.evaluate(() => Consent.acceptAll());
	await waitRan(page, mk.scripts);
	await h.sleep(QUIET);
	assert.deepEqual(await ran(page), [...m.scripts, ...mk.scripts], 'the marketing ones ran after acceptance; the analytics ones not again');
	assert.deepEqual(hitsOf(reqd), ones(reqd));
	await page.context().close();
});

test('requests made by code (fetch, XMLHttpRequest, sendBeacon, new Image().src, <img> inserted by code): stopped before consent and never replayed; go through after acceptance', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	const ctl = await requestsByCode(page, uniq('qf'), 'free.test');
	assert.deepEqual(ctl.out, { fetch: 'status 204', xhr: 'load', beacon: true }, 'requests to a host no rule matches work');
	assert.deepEqual(hitsOf(ctl.names), ones(ctl.names));
	const q = await requestsByCode(page, uniq('q'), 'tracker.test');
	assert.deepEqual(q.out, { fetch: 'rejected', xhr: 'error', beacon: false }, 'each call fails as a blocked request would');
	assert.deepEqual(hitsOf(q.names), zeros(q.names), 'none reached the network');
	await page.evaluate(() => Consent.acceptAll());
	await h.sleep(QUIET);
	assert.deepEqual(hitsOf(q.names), zeros(q.names), 'not replayed after acceptance');
	const q2 = await requestsByCode(page, uniq('q'), 'tracker.test');
	assert.deepEqual(q2.out, { fetch: 'status 204', xhr: 'load', beacon: true });
	assert.deepEqual(hitsOf(q2.names), ones(q2.names), 'after acceptance each goes through once');
	await page.context().close();
});

test('requests made by code after a refusal: stopped, on that page view and the next', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await page.evaluate(() => Consent.rejectAll());
	const q = await requestsByCode(page, uniq('qr'), 'tracker.test');
	assert.deepEqual(q.out, { fetch: 'rejected', xhr: 'error', beacon: false });
	assert.deepEqual(hitsOf(q.names), zeros(q.names));
	await h.visit(page, srv.page());
	const q2 = await requestsByCode(page, uniq('qr'), 'tracker.test');
	assert.deepEqual(hitsOf(q2.names), zeros(q2.names));
	await page.context().close();
});

// Hold the config request of PAGE until the returned function is called.
async function gateConfig(page) {
	let open;
	const gate = new Promise((r) => { open = r; });
	const state = { asked: false, answered: false };
	await page.route(/\/functions\/v1\/config\b/, async (route) => {
		state.asked = true;
		await gate;
		state.answered = true;
		await route.continue();
	});
	return { open, state };
}

test('returning visitor: allowed trackers run at once (before the config answer), refused ones never; requests by code follow the stored rules at once', async () => {
	const page = await h.newPage(browser);
	await h.visit(page, srv.page());
	await page.evaluate(() => Consent.save({ analytics: true, marketing: false }));
	const pre = uniq('rv');
	const pa = parserInserted(`${pre}a`, 'tracker.test', 2);
	const pm = parserInserted(`${pre}m`, 'ads.test', 2);
	const ca = codeInserted(`${pre}a`, 'tracker.test');
	const cm = codeInserted(`${pre}m`, 'ads.test');
	const g = await gateConfig(page);
	await page.goto(srv.page({ head: pa.html + pm.html, body: ca.html + cm.html }), { waitUntil: 'domcontentloaded' });
	await waitRan(page, [...pa.list, ...ca.list], 3000);
	await h.sleep(QUIET);
	const q = await requestsByCode(page, `${pre}qm`, 'ads.test');
	const qa = await requestsByCode(page, `${pre}qa`, 'tracker.test');
	assert.equal(g.state.answered, false, 'the config has not been answered yet');
	assert.deepEqual(counts(await ran(page)), ones([...pa.list, ...ca.list]), 'the allowed ones ran once, at once; the refused ones not');
	assert.deepEqual(hitsOf(cm.list), zeros(cm.list), 'refused code-inserted scripts not requested');
	assert.deepEqual(hitsOf(q.names), zeros(q.names), 'refused requests by code stopped');
	assert.deepEqual(hitsOf(qa.names), ones(qa.names), 'allowed requests by code go through');
	g.open();
	await h.ready(page);
	await h.sleep(QUIET);
	assert.deepEqual(counts(await ran(page)), ones([...pa.list, ...ca.list]), 'nothing more after the config answer');
	assert.deepEqual(hitsOf(cm.list), zeros(cm.list));
	await page.context().close();
});

test('first visit with a slow config answer: no third-party script runs before it; then one no rule matches runs, a matched one does not', async () => {
	const pre = uniq('s');
	const first = `${pre}-first`;
	const firstUrl = srv.file(`${first}.js`, `(window.ran = window.ran || []).push(${JSON.stringify(first)});`);
	const pf = parserInserted(`${pre}f`, 'free.test', 2);
	const pt = parserInserted(`${pre}t`, 'tracker.test', 2);
	const cf = codeInserted(`${pre}f`, 'free.test');
	const ct = codeInserted(`${pre}t`, 'tracker.test');
	const page = await h.newPage(browser);
	const g = await gateConfig(page);
	await page.goto(srv.page({ head: `<script src="${firstUrl}"></script>\n` + pf.html + pt.html, body: cf.html + ct.html }), { waitUntil: 'domcontentloaded' });
	const t0 = Date.now();
	await waitRan(page, [first], 2000);
	await h.sleep(1000);
	assert.ok(g.state.asked && !g.state.answered, 'the config request is still unanswered');
	assert.deepEqual(await ran(page), [first], 'only the first-party script ran while the config was awaited');
	assert.deepEqual(hitsOf([...cf.list, ...ct.list]), zeros([...cf.list, ...ct.list]), 'no code-inserted third-party script was requested');
	assert.ok(Date.now() - t0 >= 1000);
	g.open();
	await h.ready(page);
	const free = [...pf.list, ...cf.list];
	await waitRan(page, free);
	await h.sleep(QUIET);
	const r = await ran(page);
	assert.deepEqual(counts(r), ones([first, ...free]), 'the unmatched ones ran once after the answer; the matched ones not');
	assert.deepEqual(hitsOf(ct.list), zeros(ct.list));
	await page.context().close();
});
