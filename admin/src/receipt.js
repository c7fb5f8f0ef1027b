// receipt.js: a visitor's receipt (GET sites/KEY/receipt?anon_id=, owners
// only): each entry with the texts the visitor was shown, its digest and
// its inclusion proof, checked here (merkle.js) before the entry is shown;
// downloaded as the JSON the server answered, for a data-subject request.
// Erasure (POST sites/KEY/erase) after the word ERASE is typed and the
// password asked again.
import { useState } from 'preact/hooks';
import { call, get, path, problem } from './api.js';
import { html, Field, Note, Title, Confirm } from './ui.js';
import { ROLE, SiteNav, query, useSite } from './sitenav.js';
import { inclusionOk } from './merkle.js';
import { Entries } from './consents.js';

export function Receipt({ site }) {
	const { role, err: serr } = useSite(site);
	const [id, setId] = useState('');
	const [rec, setRec] = useState(null);
	const [err, setErr] = useState('');
	const [ok, setOk] = useState('');
	const look = async (e) => {
		e.preventDefault();
		setRec(null);
		setOk('');
		const r = await get(path('sites', site, 'receipt') + query({ anon_id: id.trim() }));
		if (r.status !== 200) return setErr(problem(r));
		const entries = Array.isArray(r.body.entries) ? r.body.entries : [];
		const checks = await Promise.all(entries.map((x) => (x.proof ? inclusionOk(x.digest, x.proof) : null)));
		setErr(checks.includes(false) ? 'An entry\'s inclusion proof does not verify: run consentctl consent verify.' : '');
		setRec({ body: r.body, id: id.trim(), entries: entries.map((x, i) => ({ ...x, verified: checks[i] })) });
	};
	const save = () => {
		const a = document.createElement('a');
		a.href = URL.createObjectURL(new Blob([JSON.stringify(rec.body, null, 2) + '\n'], { type: 'application/json' }));
		a.download = `receipt-${site}.json`;
		document.body.append(a);
		a.click();
		a.remove();
		setTimeout(() => URL.revokeObjectURL(a.href), 1000);
	};
	return html`<${Title}>Receipts<//>
		<${SiteNav} site=${site} role=${role} at="receipt" />
		<${Note} error=${serr || err} ok=${ok} />
		${role > 0 && role < ROLE.owner && html`<p>Only the site's owners look up a visitor's entries.</p>`}
		${role >= ROLE.owner && html`<form onSubmit=${look} class="inline">
			<${Field} label="Visitor id" value=${id} onInput=${setId} required
				hint="The id the visitor's browser shows (its consent settings), as they sent it to you." />
			<button class="primary">Look up</button>
		</form>
		${rec && html`<section aria-labelledby="rec-h" data-testid="receipt">
			<h2 id="rec-h">${rec.entries.length} entries of this visitor</h2>
			${rec.entries.length > 0 && html`<button type="button" onClick=${save}>Download the receipt (JSON)</button>`}
			${rec.entries.map((x, i) => html`<${Item} x=${x} n=${i + 1} />`)}
			${rec.entries.length > 0 && html`<${Erase} site=${site} id=${rec.id}
				onDone=${(m) => { setRec(null); setOk(m); }} onError=${setErr} />`}
		</section>`}`}`;
}

function Item({ x, n }) {
	if (x.verified === false) return html`<p class="note error">Entry ${n}: its proof does not verify; not shown.</p>`;
	const shown = x.shown || {};
	const content = shown.content && typeof shown.content === 'object' ? Object.entries(shown.content) : [];
	const cats = Array.isArray(shown.categories) ? shown.categories : [];
	return html`<article class="entry" aria-labelledby=${'e' + n}>
		<h3 id=${'e' + n}>Entry ${n}</h3>
		<${Entries} rows=${[x.entry || {}]} caption=${'Entry ' + n} />
		<h4>What the visitor was shown</h4>
		<dl class="texts">${content.filter(([, v]) => typeof v === 'string').map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
		<ul>${cats.map((c) => html`<li><strong>${c.name ?? c.id}</strong> (${c.consent_model ?? c.model ?? ''}): ${c.description ?? ''}</li>`)}</ul>
		<p>Digest <code class="mono">${x.digest}</code>: ${x.proof
			? html`<strong class="ok">inclusion proof verified</strong> in seal ${x.proof.seal} (leaf ${x.proof.leaf_index} of ${x.proof.tree_size}, root <code class="mono">${x.proof.root}</code>)`
			: (x.note || 'not sealed yet')}.</p>
	</article>`;
}

function Erase({ site, id, onDone, onError }) {
	const [open, setOpen] = useState(false);
	const [typed, setTyped] = useState('');
	const go = async () => {
		if (typed.trim() !== 'ERASE') return;
		setOpen(false);
		const r = await call('POST', path('sites', site, 'erase'), { anon_id: id, confirm: 'ERASE' });
		if (problem(r)) onError(problem(r));
		else onDone(`${r.body.erased} entries of the visitor were erased; the log still verifies.`);
	};
	return html`<section aria-labelledby="erase-h">
		<h2 id="erase-h">Erase this visitor</h2>
		<p>Erasure removes the visitor's entries for good; sealed entries leave only their digest, so the log still verifies.</p>
		<button type="button" class="danger" onClick=${() => { setTyped(''); setOpen(true); }}>Erase…</button>
		<${Confirm} open=${open} title="Erase the visitor?" confirm="Erase" onConfirm=${go} onCancel=${() => setOpen(false)}>
			<p>Every entry of this visitor will be deleted. This cannot be undone.</p>
			<${Field} label="Type ERASE to confirm" value=${typed} onInput=${setTyped} autocomplete="off"
				error=${typed && typed.trim() !== 'ERASE' ? 'Type the word ERASE.' : ''} />
		<//>
	</section>`;
}
