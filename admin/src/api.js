// api.js: the page's one way to the API (docs/admin-api.md): JSON in and
// out, same-origin credentials, the session's CSRF token on every change;
// when the API asks for re-authentication the page asks the user and
// retries the request once.  Resolves to {status, body, retryAfter}, never
// rejects: a network failure is status 0 with an error body.

const BASE = new URL('api/', location.href).href;

let csrf = '';
let reauth = null;
let signedOut = null;

export function setCsrf(token) { csrf = typeof token === 'string' ? token : ''; }
// fn() resolves true once the user re-authenticated, false if they gave up.
export function onReauth(fn) { reauth = fn; }
// Asks for the password again before a sensitive download: true once done.
export const reauthenticate = () => (reauth ? reauth() : Promise.resolve(false));
// The address of a route, for a download the browser streams to a file.
export const href = (route) => BASE + route;
// fn() runs when a request with a session finds it gone (401).
export function onSignedOut(fn) { signedOut = fn; }

// A path of segments, each encoded: path('sites', key, 'domains').
export const path = (...segs) => segs.map((s) => encodeURIComponent(String(s))).join('/');

export async function call(method, route, body) {
	for (let attempt = 0; ; attempt++) {
		const init = { method, credentials: 'same-origin', cache: 'no-store', headers: {} };
		if (body !== undefined) {
			init.body = JSON.stringify(body);
			init.headers['Content-Type'] = 'application/json';
		}
		if (method !== 'GET' && csrf) init.headers['X-CSRF-Token'] = csrf;
		let res;
		try {
			res = await fetch(BASE + route, init);
		} catch {
			return { status: 0, body: { error: 'The server cannot be reached.' } };
		}
		let data = null;
		try { data = await res.json(); } catch { /* not JSON */ }
		if (!data || typeof data !== 'object') data = res.ok ? {} : { error: `The server answered ${res.status}.` };
		if (res.status === 403 && data.error === 'Re-authentication required' && attempt === 0 &&
		    reauth && await reauth()) continue;
		if (res.status === 401 && csrf && route !== 'session/reauth' && signedOut) signedOut();
		return { status: res.status, body: data, retryAfter: res.headers.get('Retry-After') };
	}
}

export const get = (route) => call('GET', route);

// The error of an answer as one line of text, or '' for a success.
export function problem(r) {
	if (r.status >= 200 && r.status < 300) return '';
	let msg = typeof r.body.error === 'string' ? r.body.error : `The server answered ${r.status}.`;
	if (r.status === 429 && r.retryAfter) msg += ` Try again in ${r.retryAfter} s.`;
	return msg;
}
