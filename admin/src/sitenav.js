// sitenav.js: a site's views as one navigation, each link shown only when
// the account's role on the site allows the view (the server refuses the
// rest anyway), and useSite(key): the site (GET sites/KEY) with its role.
import { useEffect, useState } from 'preact/hooks';
import { get, path, problem } from './api.js';
import { html } from './ui.js';

export const ROLE = { viewer: 1, editor: 2, owner: 3 };

// [route segment, link text, lowest role that sees it]
const VIEWS = [
	['', 'Settings', 1], ['editor', 'Banner editor', 1], ['versions', 'Versions', 1],
	['trackers', 'Trackers', 1], ['log', 'Consent log', 3], ['receipt', 'Receipts', 3],
	['proof', 'Proof', 1], ['stats', 'Statistics', 1],
];

export const siteHref = (site, view) => '#/sites/' + encodeURIComponent(site) + (view ? '/' + view : '');

// The navigation; without role (a view that does not load the site) it
// loads the role itself.
export function SiteNav({ site, role, at }) {
	const own = useSite(role == null ? site : null);
	const r = role ?? own.role;
	return html`<nav class="sub" aria-label="Site">${VIEWS.filter((v) => (r || 1) >= v[2]).map(([v, text]) =>
		html`<a href=${siteHref(site, v)} aria-current=${v === at ? 'page' : undefined}>${text}</a>`)}</nav>`;
}

// {s: the site or null, role: 1-3 (0 until loaded), err, reload}; key
// null loads nothing.
export function useSite(key) {
	const [s, setS] = useState(null);
	const [err, setErr] = useState('');
	const reload = async () => {
		const r = await get(path('sites', key));
		if (r.status === 200) setS(r.body);
		else setErr(problem(r));
	};
	useEffect(() => { if (key != null) reload(); }, [key]);
	return { s, role: s ? ROLE[s.role] || 0 : 0, err, reload };
}

// A query string of the non-empty values of obj ('' when none).
export function query(obj) {
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(obj)) if (v !== '' && v != null) q.set(k, String(v));
	const s = q.toString();
	return s ? '?' + s : '';
}
