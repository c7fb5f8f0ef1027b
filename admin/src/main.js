// main.js: the dashboard's entry point.  Asks the API where the user
// stands (setup needed, signed in or not), then shows that view; once
// signed in, the header's navigation and the view the address's #/route
// names (routes below), each in the module named for it.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, get, setCsrf, onReauth, onSignedOut } from './api.js';
import { html } from './ui.js';
import { Setup, Enrol, SignIn, Reauth } from './auth.js';
import { Sites } from './sites.js';
import { Site } from './site.js';
import { Editor } from './editor.js';
import { Versions } from './versions.js';
import { Users } from './users.js';
import { Account } from './account.js';
import { Trackers } from './trackers.js';
import { Log } from './consents.js';
import { Receipt } from './receipt.js';
import { Proof } from './proof.js';
import { Stats } from './stats.js';
import { Backup } from './backup.js';

// The views of a site by the route's third segment (sitenav.js links them).
const SITE_VIEWS = { editor: Editor, versions: Versions, trackers: Trackers, log: Log, receipt: Receipt, proof: Proof, stats: Stats };

// #/sites/KEY/editor -> ['sites', 'KEY', 'editor']
const route = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map((s) => {
	try { return decodeURIComponent(s); } catch { return ''; }
});

function App() {
	const [stage, setStage] = useState({ kind: 'loading' });
	const [where, setWhere] = useState(route());
	const [ask, setAsk] = useState(null);

	const signedIn = (s) => {
		setCsrf(s.csrf);
		setStage({ kind: 'app', session: s });
	};
	const signIn = (notice) => { setCsrf(''); setStage({ kind: 'signin', notice }); };

	useEffect(() => {
		const onHash = () => setWhere(route());
		addEventListener('hashchange', onHash);
		onReauth(() => new Promise((resolve) => setAsk({ resolve })));
		onSignedOut(() => signIn('Your session has ended: sign in again.'));
		(async () => {
			const s = await get('setup');
			if (s.status === 200 && s.body.needed) return setStage({ kind: 'setup', tokenFile: s.body.token_file });
			if (s.status === 503) return setStage({ kind: 'setup', problem: s.body.error });
			const r = await get('session');
			if (r.status === 200) signedIn(r.body);
			else signIn('');
		})();
		return () => removeEventListener('hashchange', onHash);
	}, []);

	const reauth = ask && html`<${Reauth} resolve=${(ok) => { ask.resolve(ok); setAsk(null); }} />`;
	switch (stage.kind) {
	case 'loading': return html`<main id="main"><p role="status">Loading…</p></main>`;
	case 'setup': return html`<${Setup} tokenFile=${stage.tokenFile} problem=${stage.problem} onEnrol=${(e) => setStage({ kind: 'enrol', enrol: e })} />`;
	case 'enrol': return html`<${Enrol} enrol=${stage.enrol} onDone=${() => signIn('Sign in with a code from the app to confirm it.')} />`;
	case 'signin': return html`<${SignIn} notice=${stage.notice} onSession=${signedIn}
		onEnrol=${(e) => setStage({ kind: 'enrol', enrol: e })} />`;
	default: return html`<${Shell} session=${stage.session} where=${where}
		onSignOut=${async () => { await call('DELETE', 'session'); signIn('Signed out.'); }} />${reauth}`;
	}
}

function Shell({ session, where, onSignOut }) {
	const all = session.roles && session.roles['*'] === 'owner';
	const [a, key, b] = where;
	let view;
	if (a === 'sites' && key && SITE_VIEWS[b]) view = html`<${SITE_VIEWS[b]} key=${key + ':' + b} site=${key} />`;
	else if (a === 'sites' && key) view = html`<${Site} key=${key} site=${key} />`;
	else if (a === 'users' && all) view = html`<${Users} />`;
	else if (a === 'backup' && all) view = html`<${Backup} />`;
	else if (a === 'account') view = html`<${Account} session=${session} />`;
	else view = html`<${Sites} canCreate=${all} />`;
	const cur = (name) => ((a || 'sites') === name ? 'page' : undefined);
	return html`<a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
	<header class="top">
		<span class="brand">Consent dashboard</span>
		<nav aria-label="Main">
			<a href="#/sites" aria-current=${cur('sites')}>Sites</a>
			${all && html`<a href="#/users" aria-current=${cur('users')}>Users</a>`}
			${all && html`<a href="#/backup" aria-current=${cur('backup')}>Backup</a>`}
			<a href="#/account" aria-current=${cur('account')}>Account</a>
		</nav>
		<span class="who">${session.user}</span>
		<button type="button" onClick=${onSignOut}>Sign out</button>
	</header>
	${session.upgraded && html`<p class="note ok" role="status">The database was upgraded to this version's schema.</p>`}
	<main id="main" tabindex="-1">${view}</main>`;
}

render(html`<${App} />`, document.getElementById('app'));
