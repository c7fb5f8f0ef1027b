// users.js: accounts and their roles (GET/POST users, PATCH/DELETE
// users/NAME), for owners of every site; each change asks for the password
// again when the API wants it (api.js).
import { useState } from 'preact/hooks';
import { call, path } from './api.js';
import { html, Field, Note, Title, Confirm, fmtTime, useForm, useList } from './ui.js';

const ROLES = [['viewer', 'Viewer'], ['editor', 'Editor'], ['owner', 'Owner']];
const roleText = (roles) => Object.entries(roles || {}).map(([k, v]) => `${k === '*' ? 'every site' : k}: ${v}`).join(', ');

export function Users() {
	const { list: users, err, ok, done } = useList('users', 'users');
	const [f, set, setF] = useForm({ username: '', password: '', site: '', role: 'editor' });
	const [del, setDel] = useState(null);
	const add = async (e) => {
		e.preventDefault();
		const r = await call('POST', 'users', { username: f.username, password: f.password,
			roles: { [f.site.trim() || '*']: f.role } });
		if (r.status === 201) setF({ username: '', password: '', site: '', role: 'editor' });
		done(r, `${f.username} added.`);
	};
	const remove = async () => {
		const name = del;
		setDel(null);
		done(await call('DELETE', path('users', name)), `${name} removed.`);
	};
	const reset2fa = async (name) => done(await call('PATCH', path('users', name), { reset_2fa: true }),
		`${name} enrols a new second factor at the next sign-in.`);
	return html`<${Title}>Users<//>
		<${Note} error=${err} ok=${ok} />
		${users && html`<table class="list" data-testid="users">
			<caption class="sr">Accounts</caption>
			<thead><tr><th scope="col">User</th><th scope="col">Roles</th><th scope="col">Two-factor</th>
				<th scope="col">Created</th><th scope="col"><span class="sr">Actions</span></th></tr></thead>
			<tbody>${users.map((u) => html`<tr>
				<td>${u.username}</td><td>${roleText(u.roles)}</td><td>${u.totp ? 'Enrolled' : 'None'}</td>
				<td>${fmtTime(u.created_at)}</td>
				<td><button type="button" onClick=${() => reset2fa(u.username)}>Reset two-factor of ${u.username}</button>
					<button type="button" onClick=${() => setDel(u.username)}>Remove ${u.username}</button></td>
			</tr>`)}</tbody>
		</table>`}
		<section aria-labelledby="add-u">
			<h2 id="add-u">Add a user</h2>
			<form onSubmit=${add}>
				<${Field} label="User name" value=${f.username} onInput=${set('username')} autocomplete="off" required />
				<${Field} label="Password" type="password" value=${f.password} onInput=${set('password')}
					autocomplete="new-password" hint="12 to 128 characters; they change it after signing in." required />
				<${Field} label="Site key" value=${f.site} onInput=${set('site')} hint="Empty: every site." />
				<${Field} label="Role" value=${f.role} onInput=${set('role')} options=${ROLES} />
				<button class="primary">Add the user</button>
			</form>
		</section>
		${users && users.length > 0 && html`<${SetRole} users=${users} done=${done} />`}
		<${Confirm} open=${del != null} title="Remove this user?" confirm="Remove"
			onConfirm=${remove} onCancel=${() => setDel(null)}>
			<p>${del} will no longer be able to sign in; their sessions end.</p>
		<//>`;
}

// One role of one account changed (or taken away): PATCH users/NAME with
// the account's roles so changed, as the API replaces them whole.
function SetRole({ users, done }) {
	const [f, set] = useForm({ username: users[0].username, site: '', role: 'editor' });
	const submit = async (e) => {
		e.preventDefault();
		const u = users.find((x) => x.username === f.username);
		const roles = { ...(u && u.roles) };
		const site = f.site.trim() || '*';
		if (f.role === '') delete roles[site];
		else roles[site] = f.role;
		done(await call('PATCH', path('users', f.username), { roles }), `The roles of ${f.username} changed.`);
	};
	return html`<section aria-labelledby="role-u">
		<h2 id="role-u">Change a role</h2>
		<form onSubmit=${submit}>
			<${Field} label="Account" value=${f.username} onInput=${set('username')}
				options=${users.map((u) => [u.username, u.username])} />
			<${Field} label="Site key of the role" value=${f.site} onInput=${set('site')} hint="Empty: every site." />
			<${Field} label="New role" value=${f.role} onInput=${set('role')} options=${[...ROLES, ['', 'None (take it away)']]} />
			<button>Change the role</button>
		</form>
	</section>`;
}
