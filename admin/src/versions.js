// versions.js: a site's published versions with who and when (GET
// sites/KEY/configs), a line diff of any two documents, and restore (an
// earlier version published again, after a confirmation).
import { useEffect, useState } from 'preact/hooks';
import { diffLines } from 'diff';
import { call, get, path, problem } from './api.js';
import { html, Field, Note, Title, Confirm, fmtTime } from './ui.js';
import { SiteNav } from './sitenav.js';

export function Versions({ site }) {
	const [list, setList] = useState(null);
	const [live, setLive] = useState(null);
	const [err, setErr] = useState('');
	const [ok, setOk] = useState('');
	const [pick, setPick] = useState({ a: '', b: '' });
	const [diff, setDiff] = useState(null);
	const [restore, setRestore] = useState(null);
	const load = async () => {
		const r = await get(path('sites', site, 'configs'));
		if (r.status !== 200) return setErr(problem(r));
		const v = Array.isArray(r.body.versions) ? r.body.versions : [];
		setList(v);
		setLive(r.body.live ?? null);
		if (v.length >= 2 && !pick.a) setPick({ a: String(v[1].version), b: String(v[0].version) });
	};
	useEffect(() => { load(); }, [site]);
	const showDiff = async (e) => {
		e.preventDefault();
		const docs = await Promise.all([pick.a, pick.b].map((v) => get(path('sites', site, 'configs', v))));
		const bad = docs.find((r) => r.status !== 200);
		if (bad) return setErr(problem(bad));
		setErr('');
		const text = (r) => JSON.stringify(r.body.document, null, 2) + '\n';
		setDiff({ a: pick.a, b: pick.b, parts: diffLines(text(docs[0]), text(docs[1])) });
	};
	const doRestore = async () => {
		const v = restore;
		setRestore(null);
		const r = await call('POST', path('sites', site, 'configs'), { restore: Number(v) });
		if (r.status === 201) { setErr(''); await load(); setOk(`Version ${v} published again as version ${r.body.version}.`); }
		else { setOk(''); setErr(problem(r)); }
	};
	const opts = (list || []).map((v) => [String(v.version), `Version ${v.version}`]);
	return html`<${Title}>Versions<//>
		<${SiteNav} site=${site} at="versions" />
		<${Note} error=${err} ok=${ok} />
		${list && (list.length === 0 ? html`<p>Nothing published yet.</p>` : html`<table class="list" data-testid="versions">
			<caption class="sr">Published versions, newest first</caption>
			<thead><tr><th scope="col">Version</th><th scope="col">Published</th><th scope="col">By</th>
				<th scope="col">SHA-256</th><th scope="col"><span class="sr">Action</span></th></tr></thead>
			<tbody>${list.map((v) => html`<tr>
				<td>${v.version}${String(v.version) === String(live) ? ' (live)' : ''}</td>
				<td>${fmtTime(v.published_at)}</td>
				<td>${v.by}</td>
				<td class="mono hash">${(v.sha256 || '').slice(0, 12)}</td>
				<td>${String(v.version) !== String(live) && html`<button type="button" onClick=${() => setRestore(String(v.version))}>Restore version ${v.version}</button>`}</td>
			</tr>`)}</tbody>
		</table>`)}
		${opts.length >= 2 && html`<section aria-labelledby="diff-h">
			<h2 id="diff-h">Compare two versions</h2>
			<form class="row" onSubmit=${showDiff}>
				<${Field} label="From" value=${pick.a} onInput=${(v) => setPick({ ...pick, a: v })} options=${opts} />
				<${Field} label="To" value=${pick.b} onInput=${(v) => setPick({ ...pick, b: v })} options=${opts} />
				<button>Show the differences</button>
			</form>
			${diff && html`<pre class="diff" tabindex="0" data-testid="diff" aria-label=${`Differences from version ${diff.a} to ${diff.b}`}>${diff.parts.map((p) =>
				html`<span class=${p.added ? 'add' : p.removed ? 'del' : 'same'}>${p.value.replace(/\n$/, '').split('\n').map((l) => `${p.added ? '+ ' : p.removed ? '- ' : '  '}${l}\n`).join('')}</span>`)}</pre>`}
		</section>`}
		<${Confirm} open=${restore != null} title="Restore this version?" confirm="Publish it again"
			onConfirm=${doRestore} onCancel=${() => setRestore(null)}>
			<p>Version ${restore} will be published again as a new version and be what visitors see.</p>
		<//>`;
}
