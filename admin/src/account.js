// account.js: the signed-in account's own credentials: its password
// (POST account/password, which ends its other sessions) and its sessions
// (GET account/sessions, DELETE account/sessions/ID).
import { call, path } from './api.js';
import { html, Field, Note, Title, fmtTime, useForm, useList } from './ui.js';

export function Account({ session }) {
	const { list, err, ok, done } = useList('account/sessions', 'sessions');
	const [f, set, setF] = useForm({ password: '', new: '' });
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
					onInput=${set('password')} autocomplete="current-password" required />
				<${Field} label="New password" type="password" value=${f.new}
					onInput=${set('new')} autocomplete="new-password"
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
