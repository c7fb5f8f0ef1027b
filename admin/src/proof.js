// proof.js: a site's proof of consent (GET sites/KEY/proof): the latest
// head to copy and record elsewhere, sealing now (POST seal, editors),
// verification in steps with its progress (POST verify), the retention
// setting (PATCH sites/KEY, owners) and purging by it, a dry run first,
// then batch by batch with its progress (POST purge, owners, the password
// asked again).
import { useEffect, useState } from 'preact/hooks';
import { call, get, path, problem } from './api.js';
import { html, Field, Note, Title, CopyButton, Confirm } from './ui.js';
import { ROLE, SiteNav, useSite } from './sitenav.js';

export function Proof({ site }) {
	const { s, role, err: serr, reload } = useSite(site);
	const [p, setP] = useState(null);
	const [err, setErr] = useState('');
	const [ok, setOk] = useState('');
	const load = async () => {
		const r = await get(path('sites', site, 'proof'));
		if (r.status === 200) setP(r.body);
		else setErr(problem(r));
	};
	useEffect(() => { load(); }, [site]);
	const say = (r, msg) => { setErr(problem(r)); setOk(problem(r) ? '' : msg); load(); };
	const seal = async () => {
		const r = await call('POST', path('sites', site, 'seal'), {});
		say(r, r.body.sealed ? `${r.body.sealed} entries sealed.` : 'Nothing to seal: every entry is sealed.');
	};
	const head = p && p.head ? JSON.stringify(p.head) : '';
	return html`<${Title}>Proof<//>
		<${SiteNav} site=${site} role=${role} at="proof" />
		<${Note} error=${serr || err} ok=${ok} />
		${p && html`<section aria-labelledby="head-h">
			<h2 id="head-h">Latest head</h2>
			<p data-testid="proof-counts">${p.entries} entries, ${p.unsealed} not sealed yet, ${p.seals} seals.</p>
			${head ? html`<pre class="tag" tabindex="0"><code data-testid="head">${head}</code></pre>
				<${CopyButton} text=${head} label="Copy the head" />
				<p>Record this line where this server cannot change it (an e-mail to yourself, a ticket, a printed page).
					Whoever holds it can later check that no sealed entry was changed or removed:
					<code>consentctl consent verify ${site} --head ${p.head.hash}</code>, or Verify below with it.</p>`
			: html`<p>Nothing is sealed yet.</p>`}
			${role >= ROLE.editor && html`<button type="button" class="primary" onClick=${seal}>Seal now</button>`}
		</section>
		<${Verify} site=${site} />
		${s && role >= ROLE.owner && html`<${Retention} s=${s} onDone=${(r) => { say(r, 'Retention saved.'); reload(); }} />`}`}`;
}

function Verify({ site }) {
	const [head, setHead] = useState('');
	const [st, setSt] = useState(null);
	const run = async () => {
		// Each step passes back where the last one stopped and its counts.
		let step = { from: 1 };
		setSt({ checked: 0, seals: 0 });
		for (;;) {
			const body = head.trim() ? { ...step, head: head.trim() } : step;
			const r = await call('POST', path('sites', site, 'verify'), body);
			if (r.status !== 200) return setSt({ error: problem(r) });
			if (r.body.done) return setSt({ verdict: r.body });
			setSt({ checked: r.body.checked, seals: r.body.seals });
			step = { from: r.body.next, sealed: r.body.sealed, pruned: r.body.pruned };
		}
	};
	const v = st && st.verdict;
	return html`<section aria-labelledby="ver-h">
		<h2 id="ver-h">Verify</h2>
		<${Field} label="A head recorded earlier (its hash, optional)" value=${head} onInput=${setHead} class="mono" />
		<button type="button" onClick=${run}>Verify the log</button>
		${st && !v && !st.error && html`<p role="status"><progress max=${st.seals || 1} value=${st.checked || 0}></progress>
			Seal ${st.checked} of ${st.seals} checked…</p>`}
		${st && st.error && html`<p class="note error" role="alert">${st.error}</p>`}
		${v && (v.ok ? html`<p class="note ok" role="status" data-testid="verdict">The log verifies: ${v.entries} entries, ${v.sealed} sealed in
			${v.seals} seals, ${v.unsealed} not sealed yet${v.pruned ? `, ${v.pruned} purged leaves` : ''}.</p>`
			: html`<p class="note error" role="alert" data-testid="verdict">The log does not verify: ${v.error}</p>`)}
	</section>`;
}

function Retention({ s, onDone }) {
	const [days, setDays] = useState(s.retention_days == null ? '' : String(s.retention_days));
	const [dry, setDry] = useState(null);
	const [prog, setProg] = useState(null);
	const [err, setErr] = useState('');
	const save = async (e) => {
		e.preventDefault();
		onDone(await call('PATCH', path('sites', s.key), { retention_days: days === '' ? null : Number(days) }));
	};
	const dryRun = async () => {
		const r = await call('POST', path('sites', s.key, 'purge'), { dry_run: true });
		setErr(problem(r));
		if (!problem(r)) setDry(r.body);
	};
	const purge = async () => {
		setDry(null);
		let purged = 0;
		for (;;) {
			const r = await call('POST', path('sites', s.key, 'purge'), {});
			if (problem(r)) return setErr(problem(r));
			purged += r.body.purged;
			setProg({ purged, remaining: r.body.remaining, done: r.body.done });
			if (r.body.done) return undefined;
		}
	};
	return html`<section aria-labelledby="ret-h">
		<h2 id="ret-h">Retention and purge</h2>
		<form onSubmit=${save} class="inline">
			<${Field} label="Keep entries for (days)" type="number" min="1" value=${days} onInput=${setDays} hint="Empty: kept until erased." />
			<button>Save</button>
		</form>
		<p>Purging deletes the entries older than that; sealed ones leave their leaf, so the log still verifies.</p>
		<button type="button" onClick=${dryRun}>Purge…</button>
		<${Note} error=${err} />
		<${Confirm} open=${!!dry} title="Purge old entries?" confirm="Purge" onConfirm=${purge} onCancel=${() => setDry(null)}>
			<p data-testid="dry-run">${dry && `${dry.entries} entries older than ${dry.cutoff} would be deleted, then ${dry.visitor_rows} monthly-visitor rows of months that are over.`}</p>
		<//>
		${prog && html`<p role="status" data-testid="purge"><progress max=${prog.purged + prog.remaining} value=${prog.purged}></progress>
			${prog.purged} entries purged${prog.done ? '.' : `, ${prog.remaining} to go…`}</p>`}
	</section>`;
}
