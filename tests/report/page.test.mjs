// page.test.mjs: the page of `consentctl report` in a real headless
// Chromium (t0620), made from the known log of tests/fixtures/report-log.sql:
// opened from a file:// URL it requests nothing, every chart has drawn
// marks, every table holds the numbers of `report --json` formatted for the
// reader's locale, no text of the data becomes markup, axe-core finds no
// WCAG 2.1 A/AA violation in the light and the dark scheme, and print
// shows everything.  Screenshots, the page and a PDF are kept in
// build/test-artifacts/report/ for a person to look at.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from '../browser/harness.mjs';

const AXE = readFileSync(path.join(h.TOP, 'node_modules/axe-core/axe.min.js'), 'utf8');
const ART = path.join(h.TOP, 'build/test-artifacts/report');
const NAME = '</script><b>Shop</b> & "Co" <img src=x onerror="window.pwned=1">';
let dir, url, data, browser;

before(async () => {
	dir = mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'consent-report-'));
	const env = { ...process.env, CONSENT_DB: path.join(dir, 'consent.db') };
	const ctl = (...a) => execFileSync(path.join(h.BUILD, 'bin/consentctl'), a, { env, encoding: 'utf8' });
	ctl('init');
	ctl('site', 'add', 'shop', '--name', NAME, '--domain', 'shop.example');
	execFileSync('sqlite3', [env.CONSENT_DB], { input: readFileSync(path.join(h.TOP, 'tests/fixtures/report-log.sql')) });
	const period = ['--since', '2026-10-01', '--until', '2026-10-10'];
	data = JSON.parse(ctl('report', 'shop', ...period, '--json'));
	const html = path.join(dir, 'report.html');
	writeFileSync(html, ctl('report', 'shop', ...period));
	url = pathToFileURL(html).href;
	mkdirSync(ART, { recursive: true });
	writeFileSync(path.join(ART, 'report.html'), readFileSync(html));
	browser = await h.launch();
});
after(async () => {
	await browser?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

// A page of the report in a fresh context; every request it makes is kept.
async function open(opts = {}) {
	const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 900 }, ...opts });
	const page = await context.newPage();
	page.requests = [];
	page.errors = [];
	page.on('request', (r) => page.requests.push(r.url()));
	page.on('pageerror', (e) => page.errors.push(String(e)));
	await page.goto(url);
	await page.waitForSelector('html[data-ready="true"]', { timeout: 10000 });
	return page;
}

// The text of every cell of a table's body, row by row.
const cells = (page, id) => page.$$eval(`#${id} tbody tr`, (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));

function formats(locale) {
	const nf = new Intl.NumberFormat(locale);
	const pf = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
	const df = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
	const mf = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' });
	return {
		n: (v) => nf.format(v),
		p: (v) => (v == null ? '–' : pf.format(v / 100)),
		day: (s) => df.format(new Date(`${s}T00:00:00Z`)),
		month: (s) => mf.format(new Date(`${s}-01T00:00:00Z`)),
	};
}
const shares = (f, r) => ['opt_in', 'opt_out', 'partial', 'acknowledge'].map((k) => f.p(r[`${k}_percent`]));

test('opened from a file:// URL the page requests nothing and runs without an error', async () => {
	const page = await open();
	await page.waitForTimeout(300);
	const outside = page.requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'));
	assert.deepEqual(outside, [], 'no request leaves the file');
	assert.deepEqual(page.requests, [url], 'the page itself is its one request');
	assert.deepEqual(page.errors, []);
	await page.context().close();
});

test('the site name and the recorded URLs stay text: no element, no script from the data', async () => {
	const page = await open();
	assert.equal(await page.textContent('h1'), `Consent report: ${NAME}`);
	assert.equal(await page.title(), `Consent report: ${NAME}`);
	assert.equal(await page.locator('main b').count(), 0, 'no <b> from the name');
	assert.equal(await page.locator('img').count(), 0, 'no <img> from the name or a URL');
	assert.equal(await page.evaluate(() => window.pwned), undefined);
	const last = (await cells(page, 't-scripts')).find((r) => r[0] === 'cdn.tracker.example').at(-1);
	assert.equal(last, data.scripts.find((s) => s.domain === 'cdn.tracker.example').last_page_url);
	await page.context().close();
});

test('every chart has drawn marks: pixels of each series with values in its canvas', async () => {
	const page = await open();
	const charts = await page.$$eval('figure.figure', (figs) => figs.map((f) => {
		const canvas = f.querySelector('canvas');
		const series = JSON.parse(f.dataset.series);
		const { width, height } = canvas;
		const px = canvas.getContext('2d').getImageData(0, 0, width, height).data;
		const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
		return { id: f.id, series: series.map((s) => {
			const [r, g, b] = rgb(s.color);
			let n = 0;
			for (let i = 0; i < px.length; i += 4) {
				if (px[i + 3] > 200 && Math.abs(px[i] - r) < 8 && Math.abs(px[i + 1] - g) < 8 && Math.abs(px[i + 2] - b) < 8) n++;
			}
			return { ...s, pixels: n };
		}) };
	}));
	const ids = charts.map((c) => c.id);
	assert.deepEqual(ids, ['c-daily', 'c-daily-shares', 'c-region', 'c-device', 'c-browser', 'c-position', 'c-categories', 'c-tta', 'c-mau']);
	for (const c of charts) {
		assert.ok(c.series.some((s) => s.values), `${c.id}: some series has values`);
		for (const s of c.series) {
			if (s.values) assert.ok(s.pixels >= 20, `${c.id}: series ${s.title} (${s.color}) has ${s.pixels} pixels of its colour`);
		}
	}
	await page.context().close();
});

test('the tables hold the numbers of report --json', async () => {
	const page = await open();
	const f = formats('en-US');
	const t = data.totals;
	assert.deepEqual(await page.$$eval('#tiles dd', (d) => d.map((x) => x.textContent)).then((v) => v.slice(0, 8)),
		[f.n(t.entries), f.n(t.impressions), f.n(t.decisions), f.n(t.visitors), ...shares(f, t)]);
	assert.deepEqual(await cells(page, 't-actions'), ['opt_in', 'opt_out', 'partial', 'acknowledge']
		.map((k, i) => [['Opt-in', 'Opt-out', 'Partial', 'Acknowledge'][i], f.n(t[k]), f.p(t[`${k}_percent`])]));
	assert.deepEqual(await cells(page, 't-daily'), data.daily.map((r) => [f.day(r.day), f.n(r.impressions), f.n(r.decisions), ...shares(f, r)]));
	for (const [id, member] of [['t-region', 'by_region'], ['t-device', 'by_device'], ['t-browser', 'by_browser'], ['t-position', 'by_position']]) {
		assert.deepEqual(await cells(page, id), data[member].map((r) => [r.key ?? 'not sent', f.n(r.decisions), ...shares(f, r)]), id);
	}
	assert.deepEqual(await cells(page, 't-categories'), data.categories.map((r) => [r.category, f.n(r.visitors), f.n(r.allowed), f.p(r.percent)]));
	assert.deepEqual((await cells(page, 't-tta')).map((r) => r.slice(1)), data.time_to_action.buckets.map((b) => [f.n(b.count), f.p(b.percent)]));
	assert.deepEqual(await cells(page, 't-mau'), data.mau.months.map((r) => [f.month(r.month), f.n(r.visitors), f.n(data.mau.cap), f.p(r.percent_of_cap)]));
	assert.deepEqual((await cells(page, 't-gpc')).map((r) => r[1]), [f.n(data.gpc.sent), f.n(data.gpc.not_sent), f.n(data.gpc.not_recorded)]);
	const scripts = await cells(page, 't-scripts');
	assert.deepEqual(scripts.map((r) => [r[0], r[1], r[2], r[3], r[6]]), data.scripts.map((s) =>
		[s.domain, s.category ?? '–', s.blocked ? 'yes' : 'no', s.rule ?? 'no rule', f.n(s.seen_count)]));
	assert.deepEqual(await page.$$eval('#t-scripts tbody tr', (rows) => rows.map((r) => r.classList.contains('uncovered'))),
		data.scripts.map((s) => s.rule == null), 'the domains no rule covers are marked');
	// The known figures themselves, so that a wrong JSON cannot pass.
	assert.deepEqual((await cells(page, 't-region'))[0], ['gdpr', '200', '60%', '30%', '10%', '0%']);
	assert.deepEqual((await cells(page, 't-mau'))[0], ['October 2026', '400', '1,000', '40%']);
	await page.context().close();
});

test("numbers and dates follow the reader's locale (de-DE)", async () => {
	const page = await open({ locale: 'de-DE' });
	const f = formats('de-DE');
	assert.deepEqual((await cells(page, 't-mau'))[0], [f.month('2026-10'), '400', '1.000', f.p(40)]);
	assert.equal((await cells(page, 't-categories'))[1][3], f.p(65.7));
	assert.match(f.p(65.7), /^65,7\s%$/);
	assert.equal((await cells(page, 't-daily'))[0][0], f.day('2026-10-01'));
	await page.context().close();
});

async function axe(page) {
	await page.addScriptTag({ content: AXE });
	return page.evaluate(async () => {
		const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
		return { violations: r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), passes: r.passes.length };
	});
}

for (const scheme of ['light', 'dark']) {
	test(`axe-core: no WCAG 2.1 A/AA violation, ${scheme} scheme; screenshot kept`, async () => {
		const page = await open({ colorScheme: scheme });
		const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
		assert.equal(bg, scheme === 'dark' ? 'rgb(17, 20, 24)' : 'rgb(255, 255, 255)', `the ${scheme} scheme is in force`);
		await page.screenshot({ path: path.join(ART, `report-${scheme}.png`), fullPage: true });
		const r = await axe(page);
		assert.deepEqual(r.violations, []);
		assert.ok(r.passes > 10, `axe checked the page (${r.passes} rules passed)`);
		await page.context().close();
	});
}

test('the scheme changes while open: the charts are drawn again in the new colours', async () => {
	const page = await open({ colorScheme: 'light' });
	const before = await page.$eval('#c-daily', (f) => JSON.parse(f.dataset.series)[0].color);
	await page.emulateMedia({ colorScheme: 'dark' });
	await page.waitForFunction((c) => JSON.parse(document.getElementById('c-daily').dataset.series)[0].color !== c, before);
	assert.equal(await page.$eval('#c-daily', (f) => JSON.parse(f.dataset.series)[0].color), '#60a5fa');
	await page.context().close();
});

test('print: light colours, every table row shown, a PDF kept', async () => {
	const page = await open({ colorScheme: 'dark' });
	await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
	assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
	assert.equal(await page.$eval('#tiles div', (d) => getComputedStyle(d).backgroundColor), 'rgb(245, 247, 249)', 'the light panels on paper');
	await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
	assert.equal(await page.$eval('#c-daily', (f) => JSON.parse(f.dataset.series)[0].color), '#2563eb', 'the charts drawn again in light colours');
	assert.equal(await page.$eval('#t-daily', (t) => getComputedStyle(t.parentElement).overflow), 'visible');
	const pdf = path.join(ART, 'report.pdf');
	await page.pdf({ path: pdf, format: 'A4', printBackground: true });
	assert.ok(statSync(pdf).size > 20000, 'the PDF has content');
	await page.context().close();
});
