// tracker.mjs: third-party hosts for the holding, signals and report tests
// (issue 17).  One small node http server per test file on a free port of
// 127.0.0.1; the browser reaches it under any *.test name (launch() maps
// every *.test to 127.0.0.1), so http://tracker.test:PORT,
// http://ads.test:PORT and http://free.test:PORT are three "third parties"
// served by it.  Every request is logged (host, method, path) on the server
// side, so a test can tell "requested" from "ran".
//
//   /t/NAME.js        a tracker script: when it runs it pushes NAME to
//                     window.ran; ?dl=1 also pushes ['tag-ran', NAME] to
//                     window.dataLayer (a gtag-like tag); ?delay=MS answers
//                     after MS milliseconds; ?tag=1 makes it a tag's
//                     first stage: it also sets the cookie NAME=1 and
//                     sends the pixel /px/NAME-hit.gif to its own host.
//   /px/NAME.gif      a 1x1 GIF pixel.
//   /b/NAME           a fetch/XHR/beacon target (any method, CORS open,
//                     preflight answered): 204.
//   /f/NAME.html      an iframe document (under any path: /maps/embed/f/
//                     for a Google Maps embed); ?embed=1 makes it an embed's
//                     player: it loads /t/NAME-player.js and the image
//                     /px/NAME-thumb.gif from its own host.
// Everything is sent with Cache-Control: no-store, so each use is a request.
//
// startTracker({ tls: true }) also speaks TLS on the same port (a
// self-signed certificate made by openssl; pages need a context with
// ignoreHTTPSErrors): real tracker hosts such as www.google-analytics.com
// are on Chromium's HSTS preload list, so their http:// URLs become https://
// ones on the same port before any request is made.
//
// startTracker({ routes }) answers from ROUTES(req, url, host) first: a
// { type, body } it returns is sent (200, the same headers), null falls
// through to the paths above (tests/tags/vendors.mjs serves the vendors'
// scripts so).  The log keeps each request's Referer as ref.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A self-signed certificate and its key, made in a temporary directory.
function selfSigned() {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'tracker-tls-'));
	try {
		execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=tracker',
			'-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
		return { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export async function startTracker({ tls = false, routes = null } = {}) {
	const log = [];
	const handle = async (req, res) => {
		const u = new URL(req.url, 'http://x');
		const host = String(req.headers.host || '').replace(/:\d+$/, '');
		log.push({ host, method: req.method, path: u.pathname, query: u.search, ref: req.headers.referer || '', t: Date.now() });
		req.resume();
		const cors = {
			'Access-Control-Allow-Origin': req.headers.origin || '*',
			'Access-Control-Allow-Credentials': 'true',
			'Access-Control-Allow-Methods': 'GET, POST, PUT, OPTIONS',
			'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] || '*',
			'Cache-Control': 'no-store',
		};
		let m;
		const own = routes && routes(req, u, host);
		if (own) {
			res.writeHead(200, { ...cors, 'Content-Type': own.type });
			res.end(own.body);
		} else if ((m = /^\/t\/([\w.-]+)\.js$/.exec(u.pathname))) {
			const delay = Number(u.searchParams.get('delay') || 0);
			if (delay) await sleep(delay);
			const name = JSON.stringify(m[1]);
			let body = `(window.ran = window.ran || []).push(${name});\n`;
			if (u.searchParams.get('tag')) {
				body += `document.cookie = ${JSON.stringify(m[1] + '=1; path=/')};\n`;
				const own = `${req.socket.encrypted ? 'https' : 'http'}://${req.headers.host}`;
				body += `new Image().src = ${JSON.stringify(`${own}/px/${m[1]}-hit.gif`)};\n`;
			}
			if (u.searchParams.get('dl')) body += `(window.dataLayer = window.dataLayer || []).push(['tag-ran', ${name}]);\n`;
			res.writeHead(200, { ...cors, 'Content-Type': 'text/javascript' });
			res.end(body);
		} else if (/^\/px\//.test(u.pathname)) {
			res.writeHead(200, { ...cors, 'Content-Type': 'image/gif' });
			res.end(GIF);
		} else if (/^\/b\//.test(u.pathname)) {
			res.writeHead(204, cors);
			res.end();
		} else if (/\/f\/[^/]+\.html$/.test(u.pathname)) {
			res.writeHead(200, { ...cors, 'Content-Type': 'text/html' });
			const name = u.pathname.replace(/^.*\/|\.html$/g, '');
			res.end('<!doctype html><title>frame</title><p>third-party frame</p>' + (u.searchParams.get('embed')
				? `<script src="/t/${name}-player.js"></script><img alt="" src="/px/${name}-thumb.gif">` : ''));
		} else {
			res.writeHead(404, cors);
			res.end();
		}
	};
	const plain = http.createServer(handle);
	const secure = tls ? https.createServer(selfSigned(), handle) : null;
	// One port for both: a connection whose first byte opens a TLS
	// handshake (0x16) goes to the https server.
	const server = net.createServer((sock) => {
		sock.once('data', (buf) => {
			sock.pause();
			sock.unshift(buf);
			(secure && buf[0] === 0x16 ? secure : plain).emit('connection', sock);
			process.nextTick(() => sock.resume());
		});
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const port = server.address().port;
	const tr = {
		port, log,
		// The URL of a tracker script, pixel, beacon target or frame on HOST.
		js: (host, name, q = '') => `http://${host}:${port}/t/${name}.js${q ? '?' + q : ''}`,
		px: (host, name) => `http://${host}:${port}/px/${name}.gif`,
		b: (host, name) => `http://${host}:${port}/b/${name}`,
		frame: (host, name) => `http://${host}:${port}/f/${name}.html`,
		// How many requests (not counting CORS preflights) named NAME reached
		// the server: NAME is the last path segment without its extension.
		hits(name) {
			return log.filter((r) => r.method !== 'OPTIONS' &&
				r.path.replace(/^.*\//, '').replace(/\.(js|gif|html)$/, '') === name).length;
		},
		// Any request at all (preflights too) for NAME.
		touched(name) {
			return log.some((r) => r.path.replace(/^.*\//, '').replace(/\.(js|gif|html)$/, '') === name);
		},
		stop: () => new Promise((r) => {
			for (const x of [plain, secure]) x?.closeAllConnections?.();
			server.close(() => r());
		}),
	};
	return tr;
}

// What ran on the page: window.ran (names of tracker scripts in the order
// they ran), [] when nothing ran.
export const ran = (page) => page.evaluate(() => (window.ran || []).slice());

// Wait until every tracker script of NAMES has run (at most MS ms); the
// caller's assertions say what is missing.
export async function waitRan(page, names, ms = 5000) {
	try {
		await page.waitForFunction((ns) => ns.every((x) => (window.ran || []).includes(x)), names, { timeout: ms });
	} catch { /* the assertions say what is missing */ }
}

// Count of each name in a list.
export function counts(list) {
	const c = {};
	for (const x of list) c[x] = (c[x] || 0) + 1;
	return c;
}

// A config (from the harness's baseConfig/modelConfig) with the test rules
// added in front of the built-in ones: tracker.test is analytics,
// ads.test is marketing; free.test and gtm.test match no rule.
export function withRules(doc) {
	doc.scriptRules = [
		{ pattern: 'tracker.test', category: 'analytics' },
		{ pattern: 'ads.test', category: 'marketing' },
		...(doc.scriptRules || []),
	];
	return doc;
}
