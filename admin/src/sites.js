// sites.js: the account's sites (GET sites) and, for owners of every site,
// the form that creates one (POST sites).
import { useState } from 'preact/hooks';
import { call, problem } from './api.js';
import { html, Field, Note, Title, useForm, useList } from './ui.js';

export function Sites({ canCreate }) {
	const { list: sites, err } = useList('sites', 'sites');
	return html`<${Title}>Sites<//>
		<${Note} error=${err} />
		${sites && (sites.length === 0 ? html`<p>No site yet.</p>` : html`<table class="list" data-testid="sites">
			<caption class="sr">Your sites</caption>
			<thead><tr><th scope="col">Name</th><th scope="col">Site key</th><th scope="col">Version</th>
				<th scope="col">State</th><th scope="col">Your role</th></tr></thead>
			<tbody>${sites.map((s) => html`<tr>
				<td><a href=${'#/sites/' + encodeURIComponent(s.key)}>${s.name || s.key}</a></td>
				<td class="mono">${s.key}</td>
				<td>${s.version ?? 'none'}</td>
				<td>${s.paused ? 'Paused' : 'Live'}</td>
				<td>${s.role}</td>
			</tr>`)}</tbody>
		</table>`)}
		${canCreate && html`<${NewSite} onDone=${(key) => { location.hash = '#/sites/' + encodeURIComponent(key); }} />`}`;
}

function NewSite({ onDone }) {
	const [f, set] = useForm({ key: '', name: '', domain: '', tier: 'free' });
	const [err, setErr] = useState('');
	const submit = async (e) => {
		e.preventDefault();
		const body = { key: f.key.trim(), name: f.name, tier: f.tier };
		if (f.domain.trim()) body.domains = [f.domain.trim()];
		const r = await call('POST', 'sites', body);
		if (r.status === 201) onDone(body.key);
		else setErr(problem(r));
	};
	return html`<section aria-labelledby="new-site">
		<h2 id="new-site">New site</h2>
		<form onSubmit=${submit}>
			<${Field} label="Site key" value=${f.key} onInput=${set('key')} required
				hint="Letters, digits, hyphens and underscores; it goes into the script tag and cannot change." />
			<${Field} label="Name" value=${f.name} onInput=${set('name')} required />
			<${Field} label="First domain" value=${f.domain} onInput=${set('domain')} hint="For example shop.example.com." />
			<${Field} label="Tier" value=${f.tier} onInput=${set('tier')} options=${[['free', 'Free'], ['paid', 'Paid']]} />
			<${Note} error=${err} />
			<button class="primary">Create the site</button>
		</form>
	</section>`;
}
