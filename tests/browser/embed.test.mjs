// embed.test.mjs: issue 29 (c), embeds behind a placeholder (docs/sdk.md
// "Embeds"): iframes of the known embed hosts, in the markup or added by
// code, served by tracker.mjs under their real names (YouTube, Google Maps
// and the others, mapped by launch({hosts})), are held with the built-in
// rules and config and stand behind a placeholder in their place and of
// their size, in the banner's language, reachable by keyboard and clean
// for axe in both themes; its button (or the banner's "Accept all")
// allows the category and the same iframe loads where the placeholder was.
// Nothing of an embed's player (its script, its image) is requested before
// that; the only request the browser may make is the first one of an
// iframe in the markup (its document), which it starts before any script
// can act: the test counts it.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';
import { startTracker } from './tracker.mjs';

const AXE = readFileSync(path.join(h.TOP, 'node_modules/axe-core/axe.min.js'), 'utf8');
const YT = 'www.youtube.com', NOCOOKIE = 'www.youtube-nocookie.com', VIMEO = 'player.vimeo.com';
const MAPS = 'www.google.com', SPOTIFY = 'open.spotify.com', X = 'platform.twitter.com';
const INSTA = 'www.instagram.com', TIKTOK = 'www.tiktok.com';
let srv, browser, tr;
before(async () => {
	[srv, tr] = await Promise.all([h.startServer(), startTracker({ tls: true })]);
	browser = await h.launch({ hosts: [YT, NOCOOKIE, VIMEO, MAPS, SPOTIFY, X, INSTA, TIKTOK] });
	srv.publish(h.modelConfig('opt_in'));
});
after(async () => { await browser?.close(); await srv?.stop(); await tr?.stop(); });

let seq = 0;
const QUIET = 400;
// An embed's URL on HOST as its vendor's code has it (a path under
// /maps/embed for Google Maps), served by tracker.mjs as a player frame.
const embedUrl = (host, name) => `https://${host}:${tr.port}${host === MAPS ? '/maps/embed/f' : '/f'}/${name}.html?embed=1`;
// What of an embed NAME reached its host: the document, the player's
// script and its image.
const hits = (name) => [tr.hits(name), tr.hits(`${name}-player`), tr.hits(`${name}-thumb`)];
const page0 = () => h.newPage(browser, { ignoreHTTPSErrors: true });

// The YouTube embed as YouTube's "Share > Embed" gives it, between two
// paragraphs.
function youtube() {
	const n = `yt${++seq}`;
	return { n, html: `<p id="${n}-before">Before the video.</p><iframe id="${n}" width="560" height="315" src="${embedUrl(YT, n)}" title="YouTube video player" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe><p id="${n}-after">After the video.</p>` };
}

// The placeholder standing where the iframe N was: its box, its texts.
const placeholder = (page, n) => page.evaluate((id) => {
	const ph = document.getElementById(`${id}-before`).nextElementSibling;
	if (!ph || ph.localName !== 'consent-embed') return { tag: ph && ph.localName };
	const r = ph.getBoundingClientRect();
	const box = ph.shadowRoot && ph.shadowRoot.querySelector('.embed');
	return {
		tag: ph.localName, width: r.width, height: r.height, frameInDocument: !!document.getElementById(id),
		texts: box ? [...box.querySelectorAll('p, button')].map((e) => e.textContent) : null,
		lang: box && box.getAttribute('lang'), theme: box && box.getAttribute('data-theme'),
	};
}, n);
const rect = (page, sel) => page.evaluate((s) => {
	const r = document.querySelector(s).getBoundingClientRect();
	return [r.x, r.y, r.width, r.height];
}, sel);
// The iframe N back in place: after N-before, loaded from its src.
const inPlace = (page, n) => page.evaluate((id) => {
	const f = document.getElementById(id);
	return !!f && f.previousElementSibling.id === `${id}-before` && f.nextElementSibling.id === `${id}-after`;
}, n);
async function waitHits(name, want, ms = 5000) {
	const end = Date.now() + ms;
	while (JSON.stringify(hits(name)) !== JSON.stringify(want) && Date.now() < end) await h.sleep(50);
	return hits(name);
}

test('a YouTube embed in the markup: a placeholder in its place and of its size, under a strict CSP; nothing of the player requested before a decision, after "Reject all" or after the reload', async () => {
	const y = youtube();
	const page = await page0();
	const csp = [];
	page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });
	await h.visit(page, srv.page({ csp: true, body: y.html }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	const ph = await placeholder(page, y.n);
	assert.deepEqual(ph, {
		tag: 'consent-embed', width: 560, height: 315, frameInDocument: false,
		texts: ['YouTube video player',
			'This content is hosted by YouTube. It loads only once you allow the category “Functional”.',
			'Allow “Functional”'],
		lang: 'en', theme: 'light',
	});
	const [doc, player, thumb] = hits(y.n);
	assert.deepEqual([player, thumb], [0, 0], 'neither the player\'s script nor its image was requested');
	assert.ok(doc <= 1, `the iframe's document was requested at most once, before the SDK could act (${doc})`);
	await h.button(page, 'Reject all').click();
	await page.waitForFunction(() => Consent.get().decided);
	await h.sleep(QUIET);
	assert.equal((await placeholder(page, y.n)).tag, 'consent-embed', 'still held after "Reject all"');
	assert.deepEqual(hits(y.n).slice(1), [0, 0]);
	await page.reload();
	await h.ready(page);
	await h.sleep(QUIET);
	assert.equal((await placeholder(page, y.n)).tag, 'consent-embed', 'and on the next page view');
	assert.deepEqual(hits(y.n).slice(1), [0, 0], 'nothing of the player after the reload either');
	assert.deepEqual(csp, [], 'no Content Security Policy violation');
	assert.deepEqual(page.errors, []);
	await page.context().close();
});

test('the placeholder\'s button allows its category as a recorded decision; the same iframe loads where the placeholder was and nothing moves', async () => {
	const y = youtube();
	const page = await page0();
	await h.visit(page, srv.page({ body: y.html }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	const after0 = await rect(page, `#${y.n}-after`);
	const ph = await rect(page, 'consent-embed');
	const before = hits(y.n)[0];
	await h.button(page, 'Allow “Functional”').click();
	await page.waitForFunction(() => Consent.get().decided);
	assert.deepEqual(await waitHits(y.n, [before + 1, 1, 1]), [before + 1, 1, 1], 'the frame loaded once, its player and image with it');
	assert.equal(await inPlace(page, y.n), true, 'the iframe is back where the placeholder was');
	assert.deepEqual(await rect(page, `#${y.n}`), ph, 'in the box the placeholder had');
	assert.deepEqual(await rect(page, `#${y.n}-after`), after0, 'nothing after it moved');
	assert.equal(await page.locator('consent-embed').count(), 0);
	assert.equal(await h.isShown(h.banner(page)), false, 'the decision closed the banner');
	const st = await page.evaluate(() => Consent.get());
	assert.deepEqual(st.categories, { necessary: true, functional: true, analytics: false, marketing: false },
		'the functional category alone was allowed');
	const e = await h.visitorEntries(srv, page, 2);
	const d = e.find((x) => x.event_type === 'initial');
	assert.ok(d, 'the decision was recorded');
	assert.equal(d.interaction, 'allow_embed');
	assert.deepEqual(d.categories, st.categories);
	await page.reload();
	await h.ready(page);
	await h.sleep(QUIET);
	assert.equal(await inPlace(page, y.n), true, 'a returning visit loads the embed at once');
	assert.equal(await page.locator('consent-embed').count(), 0, 'no placeholder then');
	assert.deepEqual(page.errors, []);
	await page.context().close();
});

test('the placeholder speaks the banner\'s language: English and German', async () => {
	srv.publish(Object.assign(h.baseConfig(['en', 'de']), { regions: [{ id: 'default', countries: ['*'], consentModel: 'opt_in' }] }));
	try {
		for (const [lang, want] of [
			['en', ['This content is hosted by YouTube. It loads only once you allow the category “Functional”.', 'Allow “Functional”']],
			['de', ['Dieser Inhalt wird von YouTube bereitgestellt. Er wird erst geladen, wenn Sie die Kategorie „Funktional“ erlauben.', '„Funktional“ erlauben']],
		]) {
			const y = youtube();
			const page = await page0();
			await h.visit(page, srv.page({ attrs: { 'data-lang': lang }, body: y.html }));
			await h.banner(page).waitFor({ state: 'visible' });
			const ph = await placeholder(page, y.n);
			assert.deepEqual(ph.texts, ['YouTube video player', ...want], lang);
			assert.equal(ph.lang, lang);
			await page.context().close();
		}
	} finally {
		srv.publish(h.modelConfig('opt_in'));
	}
});

// The focused element, looking into shadow roots: [host's tag, text].
const focused = (page) => page.evaluate(() => {
	let a = document.activeElement;
	while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
	return a ? [a.getRootNode().host?.localName || null, a.localName === 'iframe' ? a.id : a.textContent.trim()] : null;
});

test('keyboard only: Tab reaches the placeholder\'s button after the banner\'s, Enter allows and focus moves to the embed', async () => {
	const y = youtube();
	const page = await page0();
	await h.visit(page, srv.page({ body: y.html }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	const seen = [];
	for (let i = 0; i < 12; i++) {
		await page.keyboard.press('Tab');
		const f = await focused(page);
		seen.push(f && f[1]);
		if (f && f[0] === 'consent-embed') break;
	}
	assert.deepEqual(seen.slice(0, 3), ['Accept all', 'Reject all', 'Customize'], 'the banner first');
	assert.deepEqual(await focused(page), ['consent-embed', 'Allow “Functional”'], `then the placeholder's button (${seen})`);
	await page.keyboard.press('Enter');
	await page.waitForFunction(() => Consent.get().decided);
	await page.waitForFunction((id) => !!document.getElementById(id), y.n);
	assert.equal(await inPlace(page, y.n), true);
	assert.deepEqual(await focused(page), [null, y.n], 'focus is on the embed that replaced the button');
	await page.context().close();
});

for (const theme of ['light', 'dark']) {
	test(`axe-core: no WCAG 2.1 A/AA violation in the placeholder, ${theme} theme`, async () => {
		const doc = h.modelConfig('opt_in');
		doc.appearance.theme = theme;
		srv.publish(doc);
		try {
			const y = youtube();
			const page = await page0();
			await h.visit(page, srv.page({ body: y.html }));
			await h.banner(page).waitFor({ state: 'visible' });
			assert.equal((await placeholder(page, y.n)).theme, theme);
			await page.addScriptTag({ content: AXE });
			const r = await page.evaluate(async () => {
				const x = await window.axe.run({ include: [{ fromShadowDom: ['consent-embed', '.embed'] }] },
					{ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
				return { violations: x.violations.map((v) => `${v.id}: ${v.help}`), passes: x.passes.length };
			});
			assert.deepEqual(r.violations, []);
			assert.ok(r.passes >= 3, `axe checked the placeholder (${r.passes} rules passed)`);
			await page.context().close();
		} finally {
			srv.publish(h.modelConfig('opt_in'));
		}
	});
}

test('an embed written by document.write stands behind its placeholder in place, requested not at all; "Accept all" loads it there once', async () => {
	const n = [`w${++seq}-yt`, `w${seq}-vimeo`];
	const page = await page0();
	await h.visit(page, srv.page({ body: `<script>document.write('<p id="${n[0]}-before"></p><iframe id="${n[0]}" width="560" height="315" src="${embedUrl(YT, n[0])}" title="YouTube video player"></iframe><p id="${n[0]}-after"></p>');</script>
<script>document.writeln('<p id="${n[1]}-before"></p><iframe id="${n[1]}" width="640" height="360" src="${embedUrl(VIMEO, n[1])}"></iframe><p id="${n[1]}-after"></p>');</script>` }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	const yt = await placeholder(page, n[0]), vimeo = await placeholder(page, n[1]);
	assert.deepEqual([yt.tag, yt.width, yt.height, yt.texts[0]], ['consent-embed', 560, 315, 'YouTube video player']);
	assert.deepEqual([vimeo.tag, vimeo.width, vimeo.height, vimeo.texts[0]], ['consent-embed', 640, 360, 'Vimeo']);
	assert.deepEqual(n.map(hits), [[0, 0, 0], [0, 0, 0]], 'nothing of either requested, not even the document');
	await h.button(page, 'Accept all').click();
	await page.waitForFunction(() => Consent.get().decided);
	for (const x of n) {
		assert.deepEqual(await waitHits(x, [1, 1, 1]), [1, 1, 1], `${x}: loaded once`);
		assert.equal(await inPlace(page, x), true, `${x}: in place`);
	}
	assert.deepEqual(page.errors, []);
	await page.context().close();
});

// Every known embed host, each as its vendor's code gives it: in the
// markup, and the same added by code in the ways pages do (createElement
// and appendChild, src set after insertion, setAttribute, a container
// appended with the iframe inside, innerHTML).
const HOSTS = [[YT, 'YouTube', 'Functional'], [NOCOOKIE, 'YouTube', 'Functional'], [VIMEO, 'Vimeo', 'Functional'],
	[MAPS, 'Google Maps', 'Functional'], [SPOTIFY, 'Spotify', 'Functional'], [X, 'X', 'Marketing'],
	[INSTA, 'Instagram', 'Marketing'], [TIKTOK, 'TikTok', 'Marketing']];

test('every known embed host, in the markup and added by code, stands behind a placeholder naming its host and category; "Accept all" loads each once, in place', async () => {
	const p = `e${++seq}`;
	const list = HOSTS.map(([host, provider, cat], i) => ({ host, provider, cat, n: `${p}-${i}` }));
	const code = list.map((e, i) => ({ ...e, n: `${e.n}c` , how: i % 5 }));
	const markup = list.map((e) => `<p id="${e.n}-before"></p><iframe id="${e.n}" width="400" height="200" src="${embedUrl(e.host, e.n)}"></iframe><p id="${e.n}-after"></p>`).join('');
	const script = `<script>
addEventListener('DOMContentLoaded', function () {
	var ways = [
		function (d, id, url) { var f = document.createElement('iframe'); f.id = id; f.src = url; f.width = 400; f.height = 200; d.appendChild(f); },
		function (d, id, url) { var f = document.createElement('iframe'); f.id = id; f.setAttribute('width', '400'); f.setAttribute('height', '200'); d.appendChild(f); f.src = url; },
		function (d, id, url) { var f = document.createElement('iframe'); f.id = id; f.width = 400; f.height = 200; f.setAttribute('src', url); d.append(f); },
		function (d, id, url) { var w = document.createElement('div'); var f = document.createElement('iframe'); f.id = id; f.width = 400; f.height = 200; f.src = url; w.appendChild(f); d.appendChild(w); },
		function (d, id, url) { d.innerHTML = '<iframe id="' + id + '" width="400" height="200" src="' + url + '"></iframe>'; },
	];
	${JSON.stringify(code.map((e) => [e.n, embedUrl(e.host, e.n), e.how]))}.forEach(function (x) {
		var d = document.createElement('div'); d.id = x[0] + '-box'; document.body.appendChild(d); ways[x[2]](d, x[0], x[1]);
	});
});
</script>`;
	const page = await page0();
	await h.visit(page, srv.page({ body: markup + script }));
	await h.banner(page).waitFor({ state: 'visible' });
	await h.sleep(QUIET);
	for (const e of list) {
		const ph = await placeholder(page, e.n);
		assert.equal(ph.tag, 'consent-embed', `${e.host} in the markup`);
		assert.deepEqual([ph.width, ph.height], [400, 200]);
		assert.deepEqual(ph.texts.slice(1), [`This content is hosted by ${e.provider}. It loads only once you allow the category “${e.cat}”.`, `Allow “${e.cat}”`], e.host);
		assert.deepEqual(hits(e.n).slice(1), [0, 0], `nothing of ${e.host}'s player`);
	}
	const added = await page.evaluate((ns) => ns.map((n) => {
		const box = document.getElementById(`${n}-box`);
		return [!!document.getElementById(n), box.querySelectorAll('consent-embed').length];
	}), code.map((e) => e.n));
	assert.deepEqual(added, code.map(() => [false, 1]), 'each embed added by code stands behind a placeholder');
	const byCode = code.filter((e) => e.how !== 4).map((e) => [e.host, hits(e.n)]);
	assert.deepEqual(byCode, byCode.map(([host]) => [host, [0, 0, 0]]), 'an embed added by the DOM methods requests nothing at all');
	assert.deepEqual(code.filter((e) => e.how === 4).map((e) => hits(e.n).slice(1)), code.filter((e) => e.how === 4).map(() => [0, 0]),
		'one parsed from innerHTML: nothing of its player');
	const docs = list.map((e) => hits(e.n)[0]);
	console.log(`# the documents of the iframes in the markup requested before the SDK acted: ${docs.join(' ')}`);
	await h.button(page, 'Accept all').click();
	await page.waitForFunction(() => Consent.get().decided);
	for (const [i, e] of list.entries()) {
		assert.deepEqual(await waitHits(e.n, [docs[i] + 1, 1, 1]), [docs[i] + 1, 1, 1], `${e.host}: loaded once`);
		assert.equal(await inPlace(page, e.n), true, `${e.host}: in place`);
	}
	for (const e of code) {
		const want = [e.how === 4 ? tr.hits(e.n) : 1, 1, 1];
		assert.deepEqual(await waitHits(e.n, want), want, `${e.host} added by code: loaded once`);
		assert.equal(await page.evaluate((n) => document.getElementById(n)?.closest(`[id="${n}-box"]`) !== null, e.n), true, 'in its place');
	}
	assert.equal(await page.locator('consent-embed').count(), 0);
	assert.deepEqual(page.errors, []);
	await page.context().close();
});
