// auth.js: the views before a session (ADMIN.md 2-3): the first owner's
// setup with the token file, the second factor's enrolment (its URI as a
// QR code and text, the recovery codes, once), signing in, and the
// re-authentication a sensitive action asks for.
import { useState } from 'preact/hooks';
import { call, problem } from './api.js';
import { html, Field, Note, Title, Confirm, useForm } from './ui.js';
import { Qr } from './qr.js';

// problem: the installer's sentence (GET setup's 503): what to change on
// the server before the setup can go on.  A tokenFile without a leading
// '/' is relative to the folder the customer uploaded.
export function Setup({ tokenFile, problem: fix, onEnrol }) {
	const [f, set] = useForm({ token: '', username: '', password: '' });
	const [err, setErr] = useState('');
	const [busy, setBusy] = useState(false);
	const submit = async (e) => {
		e.preventDefault();
		setBusy(true);
		const r = await call('POST', 'setup', { token: f.token.trim(), username: f.username, password: f.password });
		setBusy(false);
		if (r.status === 201) onEnrol(r.body);
		else setErr(problem(r));
	};
	if (fix) return html`<main id="main" class="narrow">
		<${Title}>Set up the dashboard<//>
		<${Note} error=${fix} />
		<button class="primary" onClick=${() => location.reload()}>Try again</button>
	</main>`;
	const upload = tokenFile && tokenFile[0] !== '/';
	return html`<main id="main" class="narrow">
		<${Title}>Set up the dashboard<//>
		<p>No account exists yet. The installation wrote a one-time setup token into a file
			the web server never serves. Open it ${upload ? 'by FTP, in the folder you uploaded (the one holding cgi-bin)'
			: '(by FTP or a shell)'} and paste its content below:</p>
		<p class="file"><code data-testid="token-file">${tokenFile || 'setup-token, beside the database'}</code></p>
		${upload && html`<p>Its name starts with a dot: let your FTP client show hidden files.</p>`}
		<form onSubmit=${submit}>
			<${Field} label="Setup token" value=${f.token} onInput=${set('token')} autocomplete="off" required />
			<${Field} label="User name" value=${f.username} onInput=${set('username')} autocomplete="username"
				hint="1 to 64 of a-z, 0-9, dot, underscore, @ and hyphen." required />
			<${Field} label="Password" type="password" value=${f.password} onInput=${set('password')}
				autocomplete="new-password" hint="12 to 128 characters; common passwords are refused." required />
			<${Note} error=${err} />
			<button class="primary" disabled=${busy}>Create the first owner</button>
		</form>
	</main>`;
}

// The enrolment answer: {otpauth, secret?, recovery_codes}.
export function Enrol({ enrol, onDone }) {
	return html`<main id="main" class="narrow">
		<${Title}>Two-factor sign-in<//>
		<p>Scan this code with an authenticator app (or enter the key below), then sign in with a code
			from it: that confirms the factor.</p>
		<${Qr} text=${enrol.otpauth} label="QR code of the authenticator key" />
		<p class="mono break" data-testid="otpauth">${enrol.otpauth}</p>
		${enrol.secret && html`<p>Key: <code class="mono" data-testid="secret">${enrol.secret}</code></p>`}
		<h2>Recovery codes</h2>
		<p>Each signs you in once without the app. They are shown only now: keep them somewhere safe.</p>
		<ul class="codes mono" data-testid="recovery">
			${(enrol.recovery_codes || []).map((c) => html`<li>${c}</li>`)}
		</ul>
		<button class="primary" onClick=${onDone}>I have saved them: sign in</button>
	</main>`;
}

export function SignIn({ onSession, onEnrol, notice }) {
	const [f, set] = useForm({ username: '', password: '', totp: '' });
	const [err, setErr] = useState('');
	const [busy, setBusy] = useState(false);
	const submit = async (e) => {
		e.preventDefault();
		setBusy(true);
		const body = { username: f.username, password: f.password };
		if (f.totp.trim()) body.totp = f.totp.trim();
		const r = await call('POST', 'session', body);
		setBusy(false);
		if (r.status === 200) onSession(r.body);
		else if (r.status === 403 && r.body.otpauth) onEnrol(r.body);
		else setErr(problem(r));
	};
	return html`<main id="main" class="narrow">
		<${Title}>Sign in<//>
		<${Note} ok=${notice} />
		<form onSubmit=${submit}>
			<${Field} label="User name" value=${f.username} onInput=${set('username')} autocomplete="username" required />
			<${Field} label="Password" type="password" value=${f.password} onInput=${set('password')}
				autocomplete="current-password" required />
			<${Field} label="Code from the authenticator app or a recovery code" value=${f.totp}
				onInput=${set('totp')} autocomplete="one-time-code" hint="Owners need one." />
			<${Note} error=${err} />
			<button class="primary" disabled=${busy}>Sign in</button>
		</form>
	</main>`;
}

// The password (and code) again, for a sensitive action; resolve(true)
// once the API accepted them, resolve(false) when cancelled.
export function Reauth({ resolve }) {
	const [f, set] = useForm({ password: '', totp: '' });
	const [err, setErr] = useState('');
	const submit = async () => {
		const body = { password: f.password };
		if (f.totp.trim()) body.totp = f.totp.trim();
		const r = await call('POST', 'session/reauth', body);
		if (r.status === 200) resolve(true);
		else setErr(problem(r));
	};
	return html`<${Confirm} open=${true} title="Confirm it is you" confirm="Confirm"
		onConfirm=${submit} onCancel=${() => resolve(false)}>
		<p>This action needs your password again.</p>
		<${Field} label="Password" type="password" value=${f.password}
			onInput=${set('password')} autocomplete="current-password" />
		<${Field} label="Code from the authenticator app" value=${f.totp}
			onInput=${set('totp')} autocomplete="one-time-code" />
		<${Note} error=${err} />
	<//>`;
}
