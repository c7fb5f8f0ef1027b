// account.js: the signed-in account's own credentials: its password
// (POST account/password, which ends its other sessions) and its sessions
// (GET account/sessions, DELETE account/sessions/ID).
import { useEffect, useState } from 'preact/hooks';
import { call, get, path, problem } from './api.js';
import { html, Field, Note, Title, fmtTime } from './ui.js';

export function Account({ session }) {
	const [list, setList] = useState(null);
	const [err, setErr] = useState('');
	const [ok, setOk] = useState('');
	const [f, setF] = useState({ password: '', new: '' });
	const load = async () => {
		const r = await get('account/sessions');
		if (r.status === 200) setList(Array.isArray(r.body.sessions) ? r.body.sessions : []);
		else setErr(problem(r));
	};
	useEffect(() => { load(); }, []);
	const done = (r, msg) => {
		setErr(problem(r));
		setOk(problem(r) ? '' : msg);
		if (!problem(r)) load();
	};
	const change = async (e) => {
		e.preventDefault();
		const r = await call('POST', 'account/password', { password: f.password, new: f.new });
		if (r.status === 200) setF({ password: '', new: '' });
		done(r, 'Password changed; your other sessions have ended.');
	};
	const end = async (id) => done(await call('DELETE', path('account', 'sessions', id)), 'Session ended.');
	return html`<${Title}>Account: ${session.user}<//>
		<${Note} error=${err} ok=${ok} />
		<section aria-labelledby="pw-h">
			<h2 id="pw-h">Change the password</h2>
			<form onSubmit=${change}>
				<${Field} label="Current password" type="password" value=${f.password}
					onInput=${(v) => setF({ ...f, password: v })} autocomplete="current-password" required />
				<${Field} label="New password" type="password" value=${f.new}
					onInput=${(v) => setF({ ...f, new: v })} autocomplete="new-password"
					hint="12 to 128 characters; common passwords are refused." required />
				<button class="primary">Change the password</button>
			</form>
		</section>
		<section aria-labelledby="ses-h">
			<h2 id="ses-h">Sessions</h2>
			${list && html`<table class="list" data-testid="sessions">
				<caption class="sr">Your sessions</caption>
				<thead><tr><th scope="col">Started</th><th scope="col">Last seen</th><th scope="col">Address</th>
					<th scope="col"><span class="sr">Action</span></th></tr></thead>
				<tbody>${list.map((s) => html`<tr>
					<td>${fmtTime(s.created_at)}</td><td>${fmtTime(s.last_seen)}</td><td>${s.address}</td>
					<td>${s.current ? 'This session' : html`<button type="button" onClick=${() => end(s.id)}>End session ${s.id}</button>`}</td>
				</tr>`)}</tbody>
			</table>`}
		</section>`;
}
