// driver.mjs: one page interface over the three engines (issue 30), so that
// tests/engines/*.test.mjs are written once.  Chromium: playwright-core over
// Debian's chromium (as tests/browser/); Firefox: puppeteer-core over
// WebDriver BiDi to Debian's firefox-esr (playwright-core 1.65's BiDi needs
// a newer Firefox than the ESR); WebKit: WebDriver classic (HTTP JSON, the
// small client below) to Debian's WebKitWebDriver and WebKitGTK's
// MiniBrowser, under xvfb-run.
//
// Host mapping (nothing in /etc/hosts): Chromium --host-resolver-rules,
// Firefox network.dns.localDomains (exact names), WebKit a proxy of this
// process that sends every plain-http request to 127.0.0.1 on the URL's
// port (the session's proxy capability).
//
//   launch(engine, hosts)  a browser; hosts: the names to map besides *.test
//   b.newPage()            a page of its own: fresh cookies and storage
//   page.goto(url)         load and wait for the load event
//   page.eval(fn, arg)     fn(arg) in the page (fn's source; arg JSON), awaited
//   page.waitFor(fn, arg, ms)  until fn(arg) is truthy; throws after ms
//   page.press(key)        one key: 'Tab', 'Shift+Tab', 'Enter', 'Escape', 'Space'
//   page.clickAt(x, y)     a real mouse click at viewport coordinates
//   page.cookies()         [{name, value, expires (s since the epoch)}] of the page's URL
//   page.close()           ends the page and its storage
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
export const BINARIES = {
	chromium: process.env.CHROMIUM || '/usr/bin/chromium',
	firefox: process.env.FIREFOX || '/usr/bin/firefox-esr',
	webkit: process.env.WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver',
};
const MINIBROWSER = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
	'/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/libexec/webkit2gtk-4.1/MiniBrowser'];
export const miniBrowser = () => process.env.MINIBROWSER || MINIBROWSER.find((f) => existsSync(f)) || null;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const call = (fn, arg) => `(${fn})(${JSON.stringify(arg ?? null)})`;

export async function launch(engine, hosts = []) {
	if (engine === 'chromium') return chromium(hosts);
	if (engine === 'firefox') return firefox(hosts);
	if (engine === 'webkit') return webkit();
	throw new Error(`unknown engine ${engine}`);
}

async function waitFor(page, fn, arg, ms = 5000) {
	const end = Date.now() + ms;
	for (;;) {
		let v;
		// A DOM node found is true: the drivers do not all return nodes.
		try { v = await page.eval(`(a) => { const v = (${fn})(a); return v && v.nodeType ? true : v; }`, arg); } catch { v = undefined; }
		if (v) return v;
		if (Date.now() > end) {
			let at = '';
			try { at = await page.eval(() => `${location.href} ${JSON.stringify(window.Consent && window.Consent.get())}`); } catch { /* none */ }
			throw new Error(`waitFor timed out: ${String(fn).slice(0, 120)} (at ${at})`);
		}
		await sleep(50);
	}
}

// playwright-core and puppeteer-core pages share these shapes.
function wrap(p, close, cookies) {
	const page = {
		goto: (url) => p.goto(url, { waitUntil: 'load' }),
		eval: (fn, arg) => p.evaluate(call(fn, arg)),
		waitFor: (fn, arg, ms) => waitFor(page, fn, arg, ms),
		async press(key) { // 'Shift+Tab': puppeteer takes no combination in press()
			const ks = key.split('+');
			for (const k of ks.slice(0, -1)) await p.keyboard.down(k);
			await p.keyboard.press(ks[ks.length - 1]);
			for (const k of ks.slice(0, -1).reverse()) await p.keyboard.up(k);
		},
		clickAt: (x, y) => p.mouse.click(x, y),
		cookies,
		close,
	};
	return page;
}

async function chromium(hosts) {
	const { chromium: pw } = await import('playwright-core');
	const map = ['*.test', ...hosts].map((x) => `MAP ${x} 127.0.0.1`).join(', ');
	const browser = await pw.launch({
		executablePath: BINARIES.chromium, headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			`--host-resolver-rules=${map}`],
	});
	return {
		async newPage() {
			const ctx = await browser.newContext({ locale: 'en-US' });
			const p = await ctx.newPage();
			return wrap(p, () => ctx.close(), async () => (await ctx.cookies(p.url()))
				.map((c) => ({ name: c.name, value: c.value, expires: c.expires })));
		},
		close: () => browser.close(),
	};
}

// The names Firefox resolves to 127.0.0.1: network.dns.localDomains takes
// exact names only, so the tests' *.test names are listed.
export const TEST_NAMES = ['site.test', 'www.site.test', 'api.test', 'tracker.test', 'ads.test', 'free.test',
	'cdn.tracker.test'];

async function firefox(hosts) {
	const { default: puppeteer } = await import('puppeteer-core');
	const browser = await puppeteer.launch({
		browser: 'firefox', executablePath: BINARIES.firefox, headless: true,
		env: { ...process.env, HOME: process.env.HOME || '/root' },
		extraPrefsFirefox: {
			'network.dns.localDomains': [...TEST_NAMES, ...hosts].join(','),
			'intl.accept_languages': 'en-US',
			'network.proxy.type': 0,
			'dom.security.https_first': false,
			'browser.fixup.alternate.enabled': false,
		},
	});
	return {
		async newPage() {
			const ctx = await browser.createBrowserContext();
			const p = await ctx.newPage();
			await p.setViewport({ width: 1280, height: 720 });
			return wrap(p, () => ctx.close(), async () => (await p.cookies())
				.map((c) => ({ name: c.name, value: c.value, expires: c.expires })));
		},
		close: () => browser.close(),
	};
}

// --- WebKit: WebDriver classic ---------------------------------------------

// A forward proxy: every absolute http:// URL goes to 127.0.0.1 on its
// port (80 when none), whatever the name: the *.test names and the real
// tracker hosts alike; nothing leaves the machine.
async function localProxy() {
	const server = http.createServer((req, res) => {
		let u;
		try { u = new URL(req.url); } catch { res.writeHead(400); res.end(); return; }
		const up = http.request({ host: '127.0.0.1', port: u.port || 80, path: u.pathname + u.search,
			method: req.method, headers: req.headers }, (r) => { res.writeHead(r.statusCode, r.headers); r.pipe(res); });
		up.on('error', () => { res.writeHead(502); res.end(); });
		req.pipe(up);
	});
	server.on('connect', (req, sock) => { // https: a tunnel to the same port
		const port = Number(String(req.url).split(':').pop()) || 443;
		const up = net.connect(port, '127.0.0.1', () => { sock.write('HTTP/1.1 200 OK\r\n\r\n'); up.pipe(sock); sock.pipe(up); });
		up.on('error', () => sock.destroy());
		sock.on('error', () => up.destroy());
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	return server;
}

const KEYS = { Tab: '\uE004', Enter: '\uE007', Escape: '\uE00C', Space: ' ', Shift: '\uE008' };

async function webkit() {
	const proxy = await localProxy();
	const port = await new Promise((r) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
	// Its own process group: xvfb-run's Xvfb and the browser end with it.
	const drv = spawn('xvfb-run', ['-a', BINARIES.webkit, `--port=${port}`], {
		detached: true, stdio: 'ignore', env: { ...process.env, LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' },
	});
	const kill = () => { try { process.kill(-drv.pid, 'SIGKILL'); } catch { /* gone */ } };
	process.once('exit', kill);
	const wd = async (method, p, body) => {
		const r = await fetch(`http://127.0.0.1:${port}${p}`, {
			method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
			signal: AbortSignal.timeout(30000),
		});
		const j = await r.json();
		if (j.value && j.value.error) throw new Error(`WebDriver ${p}: ${j.value.error}: ${j.value.message}`);
		return j.value;
	};
	for (let i = 0; ; i++) {
		try { await wd('GET', '/status'); break; } catch (e) { if (i > 100) { kill(); throw e; } await sleep(100); }
	}
	const { sessionId } = await wd('POST', '/session', { capabilities: { alwaysMatch: {
		browserName: 'MiniBrowser', acceptInsecureCerts: true,
		'webkitgtk:browserOptions': { binary: miniBrowser(), args: ['--automation'] },
		proxy: { proxyType: 'manual', httpProxy: `127.0.0.1:${proxy.address().port}`, sslProxy: `127.0.0.1:${proxy.address().port}` },
	} } });
	const s = (p) => `/session/${sessionId}${p}`;
	await wd('POST', s('/window/rect'), { width: 1280, height: 720 });
	const origins = new Set();
	// One session for the browser's life (a new one costs seconds): a new
	// page starts with the cookies and localStorage of every origin it
	// visited cleared.
	const page = {
		async goto(url) {
			origins.add(new URL(url).origin);
			await wd('POST', s('/url'), { url });
		},
		eval: (fn, arg) => wd('POST', s('/execute/sync'), { script: `return ${call(fn, arg)};`, args: [] }),
		waitFor: (fn, arg, ms) => waitFor(page, fn, arg, ms),
		async press(key) {
			const ks = key.split('+').map((k) => KEYS[k] || k);
			const actions = [...ks.map((value) => ({ type: 'keyDown', value })), ...ks.reverse().map((value) => ({ type: 'keyUp', value }))];
			await wd('POST', s('/actions'), { actions: [{ type: 'key', id: 'kb', actions }] });
			await wd('DELETE', s('/actions'));
		},
		async clickAt(x, y) {
			await wd('POST', s('/actions'), { actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [
				{ type: 'pointerMove', x: Math.round(x), y: Math.round(y), origin: 'viewport' },
				{ type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }] }] });
			await wd('DELETE', s('/actions'));
		},
		async cookies() {
			return (await wd('GET', s('/cookie'))).map((c) => ({ name: c.name, value: c.value, expires: c.expiry }));
		},
		async close() {
			for (const o of origins) {
				await wd('POST', s('/url'), { url: `${o}/favicon.ico` });
				await wd('POST', s('/execute/sync'), { script: 'try { localStorage.clear(); } catch (e) {} return 1;', args: [] });
				await wd('DELETE', s('/cookie'));
			}
			origins.clear();
		},
	};
	return {
		// A test that failed before its page.close() left its origins'
		// state behind: cleared here, so that one failure is not the next
		// test's too.
		async newPage() {
			if (origins.size > 0) await page.close();
			return page;
		},
		async close() {
			try { await wd('DELETE', s('')); } catch { /* gone */ }
			kill();
			proxy.close();
		},
	};
}
