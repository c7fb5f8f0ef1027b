// sdk.mjs: gzip size and main-thread cost of showing a banner, for our
// consent.js and two open-source banner scripts, on the same minimal page
// in headless Chromium.  Run by bench/sdk.sh (make bench-sdk), which
// installs the other two; writes bench/sdk-results.md.
//
// Method.  Each script is loaded as the first script of <head> of the same
// minimal page (a heading and a paragraph) served by lighttpd on 127.0.0.1
// (tests/browser/harness.mjs: the real config endpoint for ours, the
// shipped lighttpd config), in a fresh browser context each load, so no
// cache and no stored decision.  Chromium traces the load (the DevTools
// performance timeline) until SETTLE ms (1500) after the load event, with
// nothing of Playwright's running in the page; mainThreadMs() sums the
// page's main-thread script and rendering work in thread time.  The same
// is measured on the page without any banner script, and its median is
// subtracted: what is left is the script's evaluation, its callbacks and
// the first render of its banner.  Median of RUNS loads (default 7) after
// one warm-up load.
import { readFileSync } from 'node:fs';
import { writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';
import * as h from '../tests/browser/harness.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 7);
const SETTLE = Number(process.env.BENCH_SETTLE_MS || 1500);
const NM = process.env.BENCH_NODE_MODULES || path.join(h.TOP, 'bench/out/sdk/node_modules');
const pkgVersion = (p) => JSON.parse(readFileSync(path.join(NM, p, 'package.json'), 'utf8')).version;
const gz = (files) => files.reduce((n, f) => n + Number(execFileSync('sh', ['-c', 'gzip -9 -c "$1" | wc -c', 'sh', f]).toString().trim()), 0);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

const srv = await h.startServer();
const browser = await h.launch();
const www = path.join(srv.dir, 'www/bench');
mkdirSync(www, { recursive: true });
const vdist = path.join(NM, 'vanilla-cookieconsent/dist');
copyFileSync(path.join(vdist, 'cookieconsent.umd.js'), path.join(www, 'cc.js'));
copyFileSync(path.join(vdist, 'cookieconsent.css'), path.join(www, 'cc.css'));
copyFileSync(path.join(NM, 'klaro/dist/klaro.js'), path.join(www, 'klaro.js'));

// The same categories and English texts for all three.
const T = { title: 'We value your privacy', description: 'We use cookies to run this site and, with your permission, to measure it.',
	accept: 'Accept all', reject: 'Reject all', customize: 'Customize' };
// hideFromBots: false, or it hides itself from a browser driven over CDP.
writeFileSync(path.join(www, 'cc-init.js'), `CookieConsent.run({
  hideFromBots: false,
  categories: { necessary: { enabled: true, readOnly: true }, analytics: {}, marketing: {} },
  language: { default: 'en', translations: { en: {
    consentModal: { title: ${JSON.stringify(T.title)}, description: ${JSON.stringify(T.description)},
      acceptAllBtn: ${JSON.stringify(T.accept)}, acceptNecessaryBtn: ${JSON.stringify(T.reject)}, showPreferencesBtn: ${JSON.stringify(T.customize)} },
    preferencesModal: { title: 'Preferences', acceptAllBtn: ${JSON.stringify(T.accept)}, acceptNecessaryBtn: ${JSON.stringify(T.reject)},
      savePreferencesBtn: 'Save preferences', closeIconLabel: 'Close', sections: [
        { title: 'Strictly necessary', linkedCategory: 'necessary' },
        { title: 'Analytics', linkedCategory: 'analytics' }, { title: 'Marketing', linkedCategory: 'marketing' } ] } } } }
});
`);
writeFileSync(path.join(www, 'klaro-config.js'), `window.klaroConfig = {
  version: 1, elementID: 'klaro', storageMethod: 'cookie', mustConsent: false, acceptAll: true, hideDeclineAll: false,
  lang: 'en', translations: { en: { consentNotice: { description: ${JSON.stringify(T.description)} }, purposes: { analytics: 'Analytics', marketing: 'Marketing' } } },
  services: [ { name: 'analytics', title: 'Analytics', purposes: ['analytics'] }, { name: 'ads', title: 'Ads', purposes: ['marketing'] } ]
};
`);
const page = (name, head) => {
	writeFileSync(path.join(www, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8">
${head}
<title>bench</title></head><body><h1>A page</h1><p>Some content of the page.</p></body></html>
`);
	return `${srv.site}/bench/${name}.html`;
};
srv.publish(h.modelConfig('opt_in'));

const subjects = [
	{ name: `consent.js ${h.VERSION} (this project)`, url: page('ours', `<script src="${srv.sdkUrl}" data-site-key="t1"></script>`),
		visible: '#consent-banner', files: [h.SDK] },
	{ name: `vanilla-cookieconsent ${pkgVersion('vanilla-cookieconsent')} (umd + css)`,
		url: page('vanilla', '<link rel="stylesheet" href="cc.css"><script src="cc.js"></script><script src="cc-init.js" defer></script>'),
		visible: '#cc-main .cm', files: [path.join(vdist, 'cookieconsent.umd.js'), path.join(vdist, 'cookieconsent.css')] },
	{ name: `Klaro ${pkgVersion('klaro')} (klaro.js, css included)`,
		url: page('klaro', '<script src="klaro-config.js"></script><script src="klaro.js"></script>'),
		visible: '.klaro .cookie-notice', files: [path.join(NM, 'klaro/dist/klaro.js')] },
];
const baseline = { name: 'no banner (baseline)', url: page('none', ''), visible: null };

// Main-thread work that a banner script causes, from Chromium's trace
// (the DevTools performance timeline): on the page's renderer main thread,
// script (evaluation, compilation, function calls, timers, events,
// microtasks) and rendering (style, layout, pre-paint, paint, stylesheet
// parsing), counted once where they nest, in thread time (CPU, not
// waiting: a shared machine's preemption is left out).
const WORK = new Set(['EvaluateScript', 'v8.compile', 'v8.compileModule', 'FunctionCall', 'TimerFire', 'EventDispatch',
	'RunMicrotasks', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'ParseAuthorStyleSheet',
	'XHRReadyStateChange', 'XHRLoad', 'V8.GC_SCAVENGER', 'MinorGC', 'MajorGC']);
function mainThreadMs(trace, pageUrl) {
	const ev = JSON.parse(trace.toString()).traceEvents;
	const names = {};
	for (const e of ev) if (e.ph === 'M' && e.name === 'thread_name') names[`${e.pid}:${e.tid}`] = e.args.name;
	const parse = ev.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === pageUrl);
	if (!parse) throw new Error(`no ParseHTML of ${pageUrl} in the trace`);
	const key = `${parse.pid}:${parse.tid}`;
	const work = ev.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === key && WORK.has(e.name) && e.tdur !== undefined)
		.sort((x, y) => x.ts - y.ts);
	let end = -1, us = 0;
	for (const e of work) {
		if (e.ts < end) continue; // nested in one already counted
		us += e.tdur;
		end = e.ts + e.dur;
	}
	return us / 1000;
}

async function load(s) {
	const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
	const p = await ctx.newPage();
	await browser.startTracing(p, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'] });
	await p.goto(s.url, { waitUntil: 'load' });
	// Nothing of Playwright's runs in the page until the trace stops (its
	// locators evaluate scripts there too): a fixed settle time.
	await h.sleep(SETTLE);
	const trace = await browser.stopTracing();
	if (s.visible && !await p.locator(s.visible).first().isVisible()) throw new Error(`${s.name}: no banner after ${SETTLE} ms`);
	await ctx.close();
	return mainThreadMs(trace, s.url);
}

const results = [];
for (const s of [baseline, ...subjects]) {
	await load(s); // warm-up: the server's and the browser's first-time costs
	const ms = [];
	for (let i = 0; i < RUNS; i++) ms.push(await load(s));
	results.push({ ...s, ms, med: median(ms) });
	process.stderr.write(`${s.name}: ${ms.map((x) => x.toFixed(1)).join(' ')} ms\n`);
}
await browser.close();
await srv.stop();

const base = results[0].med;
const cpu = os.cpus()[0]?.model || 'unknown CPU';
const chromiumVersion = execFileSync(h.CHROMIUM, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim().replace(/^.*?(Chromium [\d.]+).*$/s, '$1');
const lines = [
	'# Browser SDK: size and main-thread time',
	'',
	`Written by \`make bench-sdk\` (bench/sdk.sh, bench/sdk.mjs) on ${new Date().toISOString().slice(0, 10)}: ${chromiumVersion} headless, `
	+ `${os.cpus().length} × ${cpu}, median of ${RUNS} loads each in a fresh context after one warm-up load.`,
	'',
	'| script | gzip -9 (script + styles) | main-thread ms: evaluation + callbacks + first render (median, baseline subtracted) | the ' + RUNS + ' loads (ms, before subtraction) |',
	'|---|---:|---:|---|',
];
for (const r of results.slice(1)) {
	lines.push(`| ${r.name} | ${gz(r.files)} B | ${(r.med - base).toFixed(1)} | ${r.ms.map((x) => x.toFixed(1)).join(', ')} |`);
}
lines.push(`| baseline page, no banner script | | 0 (${base.toFixed(1)} raw) | ${results[0].ms.map((x) => x.toFixed(1)).join(', ')} |`);
lines.push('', 'Method: each script is the first script of the same minimal page\'s `<head>`, served by lighttpd on 127.0.0.1 '
	+ '(ours with its real config request to the real endpoint, the others configured inline with the same three categories '
	+ 'and English texts). Chromium traces each load (the DevTools performance timeline, `devtools.timeline` over CDP) until '
	+ '1.5 s after the load event, with nothing of the test driver running in the page; on the page\'s renderer main thread '
	+ 'the script work (evaluation, compilation, function calls, timers, events, microtasks, GC) and the rendering work (style, '
	+ 'layout, pre-paint, paint, stylesheet parsing) are summed once where they nest, in thread time (CPU time, so the '
	+ 'preemption of a shared machine is left out), and the same sum on the page without a banner script is subtracted. Sizes are `gzip -9` of the files a page loads: '
	+ 'consent.js (styles inside), vanilla-cookieconsent\'s `cookieconsent.umd.js` + `cookieconsent.css`, Klaro\'s `klaro.js` '
	+ '(styles and translations inside; its `klaro-no-translations.js` is the same size within 1%). The banner is checked to be '
	+ 'visible after the counters are read. vanilla-cookieconsent is run with `hideFromBots: false` (it hides itself from a '
	+ 'browser driven over CDP otherwise). The machine is shared: figures vary with its load, the raw loads show how much. '
	+ 'SDK.md 10\'s budget for consent.js is 16 ms on a first view.', '');
writeFileSync(path.join(h.TOP, 'bench/sdk-results.md'), lines.join('\n'));
console.log(lines.join('\n'));
