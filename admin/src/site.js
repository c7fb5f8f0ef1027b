// site.js: Site Settings (GET/PATCH sites/KEY): the site key and the exact
// script tag to paste, each with a copy button; name, tier, cap and
// retention; the domains; pause and resume, each confirmed first.
import { useEffect, useState } from 'preact/hooks';
import { call, get, path, problem } from './api.js';
import { html, Field, Note, Title, Confirm, CopyButton, useForm } from './ui.js';
import { ROLE, SiteNav } from './sitenav.js';

export function Site({ site }) {
	const [s, setS] = useState(null);
	const [err, setErr] = useState('');
	const [ok, setOk] = useState('');
	const load = async () => {
		const r = await get(path('sites', site));
		if (r.status === 200) setS(r.body);
		else setErr(problem(r));
	};
	useEffect(() => { load(); }, [site]);
	if (!s) return html`<${Title}>Site<//><${Note} error=${err} />`;
	const role = ROLE[s.role] || 0;
	// The change is announced once the settings shown are the new ones.
	const done = async (r, msg) => {
		const bad = problem(r);
		setErr(bad);
		if (!bad) await load();
		setOk(bad ? '' : msg);
	};
	return html`<${Title}>${s.name || s.key}<//>
		<${SiteNav} site=${site} role=${role} at="" />
		<${Note} error=${err} ok=${ok} />
		<section aria-labelledby="key-h">
			<h2 id="key-h">Site key and script tag</h2>
			<p>Site key: <code class="mono" data-testid="site-key">${s.key}</code> <${CopyButton} text=${s.key} label="Copy the site key" /></p>
			<p>Paste this as the first script of every page's <code>head</code>:</p>
			<pre class="tag" tabindex="0"><code data-testid="script-tag">${s.script_tag || ''}</code></pre>
			<${CopyButton} text=${s.script_tag || ''} label="Copy the script tag" />
			<p>State: <strong data-testid="state">${s.paused ? 'Paused: no banner is shown' : 'Live'}</strong>,
				published version: ${s.version ?? 'none'}.</p>
		</section>
		<${Settings} s=${s} role=${role} onDone=${done} />
		<${Domains} s=${s} role=${role} onDone=${done} />
		${role >= ROLE.editor && html`<${Pause} s=${s} onDone=${done} />`}`;
}

function Settings({ s, role, onDone }) {
	const [f, set] = useForm({ name: s.name || '', tier: s.tier || 'free',
		mau_cap: s.mau_cap == null ? '' : String(s.mau_cap),
		retention_days: s.retention_days == null ? '' : String(s.retention_days) });
	const owner = role >= ROLE.owner;
	const submit = async (e) => {
		e.preventDefault();
		const body = { name: f.name };
		if (owner) {
			body.tier = f.tier;
			body.mau_cap = f.mau_cap === '' ? null : Number(f.mau_cap);
			body.retention_days = f.retention_days === '' ? null : Number(f.retention_days);
		}
		onDone(await call('PATCH', path('sites', s.key), body), 'Settings saved.');
	};
	const ro = role < ROLE.editor;
	return html`<section aria-labelledby="set-h">
		<h2 id="set-h">Settings</h2>
		<form onSubmit=${submit}>
			<${Field} label="Name" value=${f.name} onInput=${set('name')} readOnly=${ro} />
			<${Field} label="Tier" value=${f.tier} onInput=${set('tier')} disabled=${!owner}
				options=${[['free', 'Free'], ['paid', 'Paid']]} />
			<${Field} label="Monthly visitor cap" type="number" min="0" value=${f.mau_cap} onInput=${set('mau_cap')}
				readOnly=${!owner} hint="Empty: the tier's default." />
			<${Field} label="Retention (days)" type="number" min="1" value=${f.retention_days}
				onInput=${set('retention_days')} readOnly=${!owner} hint="How long consent records are kept; empty: the default." />
			${!ro && html`<button class="primary">Save settings</button>`}
		</form>
	</section>`;
}

function Domains({ s, role, onDone }) {
	const [d, setD] = useState('');
	const add = async (e) => {
		e.preventDefault();
		const r = await call('POST', path('sites', s.key, 'domains'), { domain: d.trim() });
		if (r.status === 201) setD('');
		onDone(r, `Domain ${r.body.domain || d} added.`);
	};
	const remove = async (dom) => onDone(await call('DELETE', path('sites', s.key, 'domains'), { domain: dom }), `Domain ${dom} removed.`);
	const list = Array.isArray(s.domains) ? s.domains : [];
	return html`<section aria-labelledby="dom-h">
		<h2 id="dom-h">Domains</h2>
		<p>The banner is served only to pages of these domains.</p>
		<ul class="domains" data-testid="domains">${list.map((dom) => html`<li>
			<span class="mono">${dom}</span>
			${role >= ROLE.editor && html` <button type="button" onClick=${() => remove(dom)}
				aria-label=${'Remove ' + dom}>Remove</button>`}
		</li>`)}</ul>
		${role >= ROLE.editor && html`<form onSubmit=${add} class="inline">
			<${Field} label="Add a domain" value=${d} onInput=${setD} required />
			<button>Add</button>
		</form>`}
	</section>`;
}

function Pause({ s, onDone }) {
	const [open, setOpen] = useState(false);
	const act = s.paused ? 'resume' : 'pause';
	const go = async () => {
		setOpen(false);
		onDone(await call('POST', path('sites', s.key, act), {}), s.paused ? 'The site is live again.' : 'The site is paused.');
	};
	return html`<section aria-labelledby="pause-h">
		<h2 id="pause-h">${s.paused ? 'Resume' : 'Pause'}</h2>
		<p>${s.paused ? 'Resuming shows the banner again.' : 'Pausing stops the banner on every page of the site until it is resumed.'}</p>
		<button type="button" onClick=${() => setOpen(true)}>${s.paused ? 'Resume the site…' : 'Pause the site…'}</button>
		<${Confirm} open=${open} title=${s.paused ? 'Resume the site?' : 'Pause the site?'}
			confirm=${s.paused ? 'Resume' : 'Pause'} onConfirm=${go} onCancel=${() => setOpen(false)}>
			<p>${s.paused ? `The banner of ${s.name || s.key} will be shown again.`
				: `No banner will be shown on ${s.name || s.key} while it is paused.`}</p>
		<//>
	</section>`;
}
