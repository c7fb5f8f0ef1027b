// backup.js: a consistent copy of the SQLite database (GET backup: the
// online backup API on the server), for owners of every site, downloaded
// after the password is asked again.
import { html, Title } from './ui.js';
import { download } from './consents.js';

export function Backup() {
	return html`<${Title}>Backup<//>
		<p>A copy of the whole database as it is at this moment (accounts, sites, configs and the consent log),
			taken while the service keeps running. Keep it as safe as the server: it holds every record.</p>
		<p>A PostgreSQL database is backed up with <code>pg_dump</code> instead.</p>
		<button type="button" class="primary" onClick=${() => download('backup')}>Download a backup</button>`;
}
