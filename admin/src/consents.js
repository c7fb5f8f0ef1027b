// consents.js: a site's consent log (GET sites/KEY/consents, owners only:
// no other role sees a row), newest first, filtered by time, event,
// action, region, country, GPC and config version, a page at a time by its
// keyset (`next`); and its export (CSV or JSONL), downloaded after the
// password is asked again.  Every field a visitor sent is shown as text.
import { useEffect, useState } from 'preact/hooks';
import { get, href, path, problem, reauthenticate } from './api.js';
import { html, Field, Note, Title, useForm, fmtTime } from './ui.js';
import { ROLE, SiteNav, query, useSite } from './sitenav.js';

const ANY = [['', 'Any']];
const EVENTS = ANY.concat([['initial', 'Initial'], ['update', 'Update'], ['impression', 'Impression']]);
const ACTIONS = ANY.concat([['opt_in', 'Opt-in'], ['opt_out', 'Opt-out'], ['partial', 'Partial'], ['acknowledge', 'Acknowledge']]);
const GPC = ANY.concat([['true', 'Sent'], ['false', 'Not sent'], ['none', 'Not recorded']]);

// A datetime-local value (the reader's time) as the log stores times, UTC.
const iso = (v) => (v ? new Date(v).toISOString() : '');

export function Log({ site }) {
	const { role, err: serr } = useSite(site);
	const [f, set] = useForm({ from: '', to: '', event: '', action: '', region: '', country: '', gpc: '', version: '' });
	const [filters, setFilters] = useState(null);
	const [pages, setPages] = useState(['']);
	const [shown, setShown] = useState(null); // {n: page number, rows, next}
	const [err, setErr] = useState('');
	// A page of 50: a filtered answer may hold fewer (the server looks at a
	// bounded window each time), so it asks on from `next` until it has 50
	// or there is no more, 50 times at most.
	useEffect(() => {
		if (!filters) return undefined;
		let live = true;
		(async () => {
			let cursor = pages[pages.length - 1], rows = [], next = '', e = '';
			for (let i = 0; i < 50; i++) {
				const r = await get(path('sites', site, 'consents') + query({ ...filters, cursor, limit: 50 - rows.length }));
				if (r.status !== 200 || !Array.isArray(r.body.entries)) { e = problem(r); break; }
				rows = rows.concat(r.body.entries);
				next = r.body.next != null ? String(r.body.next) : '';
				if (!next || rows.length >= 50) break;
				cursor = next;
			}
			if (!live) return;
			setErr(e);
			setShown({ n: pages.length, rows, next });
		})();
		return () => { live = false; };
	}, [filters, pages]);
	useEffect(() => { if (role >= ROLE.owner && !filters) setFilters({}); }, [role]);
	const apply = (e) => {
		e.preventDefault();
		setPages(['']);
		setFilters({ ...f, from: iso(f.from), to: iso(f.to) });
	};
	const owner = role >= ROLE.owner;
	return html`<${Title}>Consent log<//>
		<${SiteNav} site=${site} role=${role} at="log" />
		<${Note} error=${serr || err} />
		${role > 0 && !owner && html`<p>Only the site's owners see the entries of the log.</p>`}
		${owner && html`<form onSubmit=${apply} class="filters" aria-label="Filters">
			<${Field} label="From" type="datetime-local" value=${f.from} onInput=${set('from')} />
			<${Field} label="Before" type="datetime-local" value=${f.to} onInput=${set('to')} />
			<${Field} label="Event" value=${f.event} onInput=${set('event')} options=${EVENTS} />
			<${Field} label="Action" value=${f.action} onInput=${set('action')} options=${ACTIONS} />
			<${Field} label="Region" value=${f.region} onInput=${set('region')} />
			<${Field} label="Country" value=${f.country} onInput=${set('country')} />
			<${Field} label="GPC" value=${f.gpc} onInput=${set('gpc')} options=${GPC} />
			<${Field} label="Config version" type="number" min="0" value=${f.version} onInput=${set('version')} />
			<button class="primary">Show</button>
		</form>
		${shown && html`<${Entries} rows=${shown.rows} />
		<p class="actions">
			${shown.n > 1 && html`<button type="button" onClick=${() => setPages(pages.slice(0, shown.n - 1))}>Previous page</button>`}
			${shown.next && html`<button type="button" onClick=${() => setPages(pages.slice(0, shown.n).concat(shown.next))}>Next page</button>`}
			<span role="status">Page ${shown.n}, ${shown.rows.length} entries.</span>
		</p>`}
		<${Export} site=${site} />`}`;
}

// The entries of a page (also a receipt's): text cells only.
export function Entries({ rows, caption = 'Entries, newest first' }) {
	return html`<div class="scroll" tabindex="0" role="region" aria-label=${caption}><table class="list" data-testid="entries">
		<caption class="sr">${caption}</caption>
		<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Action</th><th scope="col">Categories</th>
			<th scope="col">Region</th><th scope="col">Country</th><th scope="col">Language</th><th scope="col">GPC</th>
			<th scope="col">Version</th><th scope="col">Device</th><th scope="col">Browser</th><th scope="col">Page</th></tr></thead>
		<tbody>${rows.map((e) => html`<tr>
			<th scope="row">${fmtTime(e.created_at)}</th><td>${e.event_type}</td><td>${e.event_action ?? ''}</td>
			<td class="mono">${typeof e.categories === 'string' ? e.categories : JSON.stringify(e.categories ?? {})}</td>
			<td>${e.region ?? ''}</td><td>${e.country ?? ''}</td><td>${e.resolved_language ?? e.language ?? ''}</td>
			<td>${e.gpc == null ? '' : e.gpc ? 'sent' : 'no'}</td><td class="n">${e.published_version ?? ''}</td>
			<td>${e.device_type ?? ''}</td><td>${[e.browser, e.os].filter(Boolean).join(', ')}</td><td class="url">${e.page_url ?? ''}</td>
		</tr>`)}</tbody>
	</table></div>`;
}

// Starts a download of route after the password is asked again.
export async function download(route) {
	if (!await reauthenticate()) return;
	const a = document.createElement('a');
	a.href = href(route);
	a.download = '';
	document.body.append(a);
	a.click();
	a.remove();
}

// The export saved once its last line marks it complete (docs/admin-api.md):
// the bytes before that line, consentctl's export, are passed on as they
// come (the browser keeps a large Blob on disk); one cut short saves
// nothing.  Resolves to the count the mark gives ('' when not asked).
async function saveExport(route, name) {
	if (!await reauthenticate()) return '';
	const res = await fetch(href(route), { cache: 'no-store' });
	if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error || `HTTP ${res.status}`);
	let tail = new Uint8Array(0), n = '';
	const body = res.body.pipeThrough(new TransformStream({
		// All but the last whole line and what follows it, kept back.
		transform(c, out) {
			const all = new Uint8Array(tail.length + c.length);
			all.set(tail);
			all.set(c, tail.length);
			const i = all.lastIndexOf(10), j = i > 0 ? all.lastIndexOf(10, i - 1) + 1 : 0;
			if (j) out.enqueue(all.subarray(0, j));
			tail = all.subarray(j);
		},
		flush() { n = /^# export complete: (\d+) entries\r?\n$/.exec(new TextDecoder().decode(tail))?.[1]; },
	}));
	const blob = await new Response(body).blob();
	if (!n) throw new Error('it ended without its end mark');
	const a = document.createElement('a');
	a.href = URL.createObjectURL(blob);
	a.download = name;
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(a.href), 6e4);
	return n;
}

function Export({ site }) {
	const [fmt, setFmt] = useState('csv');
	const [msg, setMsg] = useState({});
	const save = async () => {
		setMsg({});
		try {
			const n = await saveExport(path('sites', site, 'consents', 'export') + query({ format: fmt }), `consents-${site}.${fmt}`);
			if (n) setMsg({ ok: `Export complete: ${n} entries.` });
		} catch (e) {
			setMsg({ error: `The export failed midway (${e.message}): nothing was saved. Try again.` });
		}
	};
	return html`<section aria-labelledby="exp-h">
		<h2 id="exp-h">Export</h2>
		<p>The whole log of the site as a file, streamed by the server and saved once complete; your password is asked first.</p>
		<${Field} label="Format" value=${fmt} onInput=${setFmt} options=${[['csv', 'CSV'], ['jsonl', 'JSON lines']]} />
		<button type="button" onClick=${save}>Download the export</button>
		<${Note} ...${msg} />
	</section>`;
}
