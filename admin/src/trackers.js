// trackers.js: a site's tracker inventory (GET sites/KEY/scripts): every
// reported script domain with its category, blocked or not, first and last
// seen, count and whether a rule covers it; a sync started here (POST
// syncs) with the page address to open, its status polled until it is
// complete or failed; the rules `scripts rules` suggests (GET rules),
// published with one action (POST rules).  Domains, page addresses and
// sources are what pages reported: shown as text only.
import { useEffect, useState } from 'preact/hooks';
import { call, get, path, problem } from './api.js';
import { html, Field, Note, Title, CopyButton, fmtTime } from './ui.js';
import { ROLE, SiteNav, useSite } from './sitenav.js';

export function Trackers({ site }) {
	const { s, role, err: serr } = useSite(site);
	const [inv, setInv] = useState(null);
	const [sug, setSug] = useState(null);
	const [err, setErr] = useState('');
	const [ok, setOk] = useState('');
	const load = async () => {
		const [r, q] = await Promise.all([get(path('sites', site, 'scripts')), get(path('sites', site, 'rules'))]);
		setErr(problem(r) || problem(q));
		if (r.status === 200) setInv(r.body);
		if (q.status === 200) setSug(q.body);
	};
	useEffect(() => { load(); }, [site]);
	const publish = async () => {
		const r = await call('POST', path('sites', site, 'rules'), {});
		setErr(problem(r));
		setOk(problem(r) ? '' : r.body.version == null ? 'Nothing to publish.' : `The rules were published as version ${r.body.version}.`);
		if (!problem(r)) load();
	};
	const scripts = inv && Array.isArray(inv.scripts) ? inv.scripts : [];
	const rules = sug && Array.isArray(sug.rules) ? sug.rules : [];
	const leftOut = sug && Array.isArray(sug.left_out) ? sug.left_out : [];
	return html`<${Title}>Trackers<//>
		<${SiteNav} site=${site} role=${role} at="trackers" />
		<${Note} error=${serr || err} ok=${ok} />
		${s && role >= ROLE.editor && html`<${Sync} s=${s} onDone=${load} />`}
		<section aria-labelledby="inv-h">
			<h2 id="inv-h">Inventory</h2>
			${inv && (scripts.length === 0 ? html`<p>No script was reported yet: start a sync.</p>` : html`<div class="scroll" tabindex="0" role="region" aria-label="Inventory">
			<table class="list" data-testid="inventory">
				<caption class="sr">Script domains the pages reported</caption>
				<thead><tr><th scope="col">Domain</th><th scope="col">Category</th><th scope="col">Blocked</th>
					<th scope="col">Covered by a rule</th><th scope="col">First seen</th><th scope="col">Last seen</th>
					<th scope="col">Reports</th><th scope="col">Last source</th></tr></thead>
				<tbody>${scripts.map((t) => html`<tr>
					<th scope="row" class="mono">${t.domain}</th>
					<td>${t.category ?? '–'}</td>
					<td>${t.blocked ? 'yes' : 'no'}</td>
					<td>${t.covered ? 'yes' : html`<strong>no rule</strong>`}</td>
					<td>${fmtTime(t.first_seen)}</td>
					<td>${fmtTime(t.last_seen)}</td>
					<td class="n">${t.seen_count}</td>
					<td class="url">${t.last_src ?? ''}</td>
				</tr>`)}</tbody>
			</table></div>`)}
		</section>
		<section aria-labelledby="rules-h">
			<h2 id="rules-h">Suggested rules</h2>
			${leftOut.length > 0 && html`<p>Left out, their category is not one of the config's (add it, or a rule of your own):</p>
			<ul data-testid="left-out">${leftOut.map((r) => html`<li><span class="mono">${r.pattern}</span>: ${r.category}</li>`)}</ul>`}
			${sug && (rules.length === 0 ? html`<p>No rule to add: every known tracker reported is covered.</p>` : html`
			<p>Rules for the known trackers the config does not block yet; publishing them makes a new version.</p>
			<ul data-testid="rules">${rules.map((r) => html`<li><span class="mono">${r.pattern}</span>: ${r.category}</li>`)}</ul>
			${role >= ROLE.editor && html`<button type="button" class="primary" onClick=${publish}>Publish these rules</button>`}`)}
		</section>`;
}

// A sync: the page to open (the site's first domain, or any page of it),
// the address with the sync's fragment, and its status until it ends.
function Sync({ s, onDone }) {
	const [page, setPage] = useState(s.domains && s.domains[0] ? `https://${s.domains[0]}/` : '');
	const [sync, setSync] = useState(null);
	const [err, setErr] = useState('');
	useEffect(() => {
		if (!sync || sync.status === 'complete' || sync.status === 'failed') return undefined;
		const t = setTimeout(async () => {
			const r = await get(path('sites', s.key, 'syncs', sync.sync_id));
			if (r.status !== 200) return setErr(problem(r));
			setSync({ ...sync, ...r.body, polls: (sync.polls || 0) + 1 });
			if (r.body.status === 'complete') onDone();
		}, 1000);
		return () => clearTimeout(t);
	}, [sync]);
	const start = async () => {
		const r = await call('POST', path('sites', s.key, 'syncs'), {});
		setErr(problem(r));
		if (!problem(r)) setSync(r.body);
	};
	let url = '';
	try { if (sync) url = new URL(page).href.replace(/#.*$/, '') + (sync.fragment || ''); } catch { url = ''; }
	return html`<section aria-labelledby="sync-h">
		<h2 id="sync-h">Sync</h2>
		<p>A sync asks a page of the site to report every script it loads, at once.</p>
		<${Field} label="Page to open" type="url" value=${page} onInput=${setPage} hint="Any page of the site that shows the banner." />
		<button type="button" onClick=${start}>Start a sync</button>
		<${Note} error=${err} />
		${sync && html`<div data-testid="sync">
			<p>Open this address in a browser (the fragment after # starts the report):</p>
			${url ? html`<pre class="tag" tabindex="0"><code data-testid="sync-url">${url}</code></pre>
			<p><a class="button" href=${url} target="_blank" rel="noopener noreferrer">Open the page</a>
				<${CopyButton} text=${url} label="Copy the address" /></p>` : html`<p class="field-error">The page to open is no address.</p>`}
			<p role="status">Status: <strong data-testid="sync-status">${sync.status || 'pending'}</strong>${sync.error ? ': ' + sync.error : ''}</p>
		</div>`}
	</section>`;
}
