// editor.js: the banner editor (ADMIN.md 7): forms over the whole config
// document (appearance, texts per language from the built-in texts,
// categories, regions and their models, Consent Mode, GPC, expiry, script
// rules) and its raw JSON beside them, both editing one draft; the
// preview of the draft; publishing it.  The API's validator (the one of
// `config publish`) names an invalid field by its path: the error is shown
// at that field, before anything is published.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, get, path, problem } from './api.js';
import { html, Field, Check, Note, Title } from './ui.js';
import { SiteNav } from './sitenav.js';
import { normPath, getAt, setAt, nearest, leaves, startTexts, startDraft, MODELS, POSITIONS, THEMES, GCM_TYPES } from './doc.js';
import { PreviewFrame } from './preview.js';

const RTL = ['ar', 'he', 'fa', 'ur', 'ps', 'yi'];
const opts = (list) => list.map((v) => [v, v]);

export function Editor({ site }) {
	const [builtin, setBuiltin] = useState(null);
	const [draft, setDraftState] = useState(null);
	const [raw, setRaw] = useState('');
	const [rawErr, setRawErr] = useState('');
	const [lang, setLang] = useState('');
	const [err, setErr] = useState(null);
	const [errAt, setErrAt] = useState('');
	const [ok, setOk] = useState('');
	const [role, setRole] = useState('viewer');
	const [pv, setPv] = useState({ region: '', country: '', language: '', scheme: 'light', width: 'desktop' });
	const [answer, setAnswer] = useState(null);
	const form = useRef(null);

	const setDraft = (d, fromRaw) => {
		setDraftState(d);
		if (!fromRaw) { setRaw(JSON.stringify(d, null, 2)); setRawErr(''); }
	};
	useEffect(() => {
		(async () => {
			const [s, b, l] = await Promise.all([get(path('sites', site)), get(path('sites', site, 'configs', 'builtin')),
				get(path('sites', site, 'configs', 'live'))]);
			if (s.status === 200 && s.body.role) setRole(s.body.role);
			if (b.status !== 200) return setErr({ message: problem(b) });
			setBuiltin(b.body.document);
			// Nothing published: live answers the built-in document (version 0).
			const d = startDraft(l.status === 200 && l.body.version > 0 ? l.body.document : null, b.body.document);
			setDraft(d);
			setLang(d.content?.defaultLanguage || Object.keys(d.content?.translations || {})[0] || '');
		})();
	}, [site]);

	// An error the API named: its language shown, then the nearest field
	// marked and focused.
	useEffect(() => {
		if (!err || !err.path || !form.current) { setErrAt(''); return; }
		const all = [...form.current.querySelectorAll('[data-path]')].map((e) => e.dataset.path);
		const at = nearest(all, err.path);
		setErrAt(at);
		if (at) form.current.querySelector(`[data-path="${CSS.escape(at)}"]`)?.focus();
	}, [err, lang]);

	if (!draft) return html`<${Title}>Banner editor<//><${Note} error=${err && err.message} />`;
	const set = (p) => (v) => setDraft(setAt(draft, p, v));
	const E = (p) => (errAt === p && err ? err.message : '');
	const failed = (r) => {
		const p = normPath(r.body.path);
		const m = /^content\.translations\.([^.]+)/.exec(p);
		if (m && draft.content?.translations?.[m[1]]) setLang(m[1]);
		setOk('');
		setErr({ message: problem(r), path: p });
	};
	const previewBody = () => {
		const body = { document: draft, language: pv.language || lang || 'en' };
		if (pv.region) body.region = pv.region;
		else if (pv.country.trim()) body.country = pv.country.trim().toUpperCase();
		return body;
	};
	const showPreview = async () => {
		const r = await call('POST', path('sites', site, 'preview'), previewBody());
		if (r.status === 200) { setErr(null); setAnswer(r.body); setOk('The draft is valid; the preview shows it.'); }
		else failed(r);
	};
	const publish = async () => {
		const r = await call('POST', path('sites', site, 'configs'), { document: draft });
		if (r.status === 201) { setErr(null); setOk(`Version ${r.body.version} published.`); }
		else failed(r);
	};
	const canEdit = role === 'editor' || role === 'owner';
	const langs = Object.keys(draft.content?.translations || {});
	const regions = (draft.regions || []).map((r) => r.id).filter((x) => typeof x === 'string');
	return html`<${Title}>Banner editor<//>
		<${SiteNav} site=${site} at="editor" />
		${err && html`<p class="note error" role="alert" data-testid="editor-error">${err.message}${err.path ? ` (at ${err.path})` : ''}</p>`}
		<${Note} ok=${ok} />
		<div class="editor">
			<form ref=${form} class="forms" onSubmit=${(e) => e.preventDefault()} aria-label="The configuration">
				<${Appearance} d=${draft} set=${set} E=${E} />
				<${Texts} d=${draft} builtin=${builtin} lang=${lang} setLang=${setLang} setDraft=${setDraft} set=${set} E=${E} />
				<${Categories} d=${draft} set=${set} E=${E} />
				<${Regions} d=${draft} set=${set} E=${E} />
				<${Rules} d=${draft} set=${set} E=${E} />
				<${Scripts} d=${draft} set=${set} E=${E} />
			</form>
			<div class="side">
				<section aria-labelledby="pv-h">
					<h2 id="pv-h">Preview</h2>
					<div class="row">
						<${Field} label="Region" value=${pv.region} onInput=${(v) => setPv({ ...pv, region: v })}
							options=${[['', 'By the visitor\'s country'], ...opts(regions)]} />
						<${Field} label="Visitor's country" value=${pv.country} onInput=${(v) => setPv({ ...pv, country: v })}
							size="4" maxLength="2" disabled=${!!pv.region} hint="With the default region: where the visitor is." />
						<${Field} label="Language" value=${pv.language || lang} onInput=${(v) => setPv({ ...pv, language: v })}
							options=${opts(langs)} />
						<${Field} label="Colour scheme" value=${pv.scheme} onInput=${(v) => setPv({ ...pv, scheme: v })}
							options=${[['light', 'Light'], ['dark', 'Dark']]} />
						<${Field} label="Width" value=${pv.width} onInput=${(v) => setPv({ ...pv, width: v })}
							options=${[['desktop', 'Desktop'], ['mobile', 'Mobile']]} />
					</div>
					<div class="actions">
						<button type="button" onClick=${showPreview}>Check and preview</button>
						${canEdit && html`<button type="button" class="primary" onClick=${publish}>Publish</button>`}
					</div>
					<${PreviewFrame} answer=${answer} site=${site} scheme=${pv.scheme} width=${pv.width} />
				</section>
				<section aria-labelledby="raw-h">
					<h2 id="raw-h">Raw JSON</h2>
					<${Field} label="The whole document" rows="16" value=${raw} class="mono raw" spellcheck="false"
						error=${rawErr} path="" onInput=${(v) => {
							setRaw(v);
							try {
								const o = JSON.parse(v);
								if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error('The document must be a JSON object.');
								setRawErr('');
								setDraft(o, true);
							} catch (e) { setRawErr(e.message); }
						}} />
				</section>
			</div>
		</div>`;
}

function Appearance({ d, set, E }) {
	return html`<fieldset><legend>Appearance</legend>
		<${Field} label="Position" path="appearance.position" value=${getAt(d, 'appearance.position') || 'bottom-full'}
			onInput=${set('appearance.position')} options=${opts(POSITIONS)} error=${E('appearance.position')} />
		<${Field} label="Theme" path="appearance.theme" value=${getAt(d, 'appearance.theme') || 'light'}
			onInput=${set('appearance.theme')} options=${opts(THEMES)} error=${E('appearance.theme')}
			hint="auto follows the visitor's light or dark setting." />
	</fieldset>`;
}

function Texts({ d, builtin, lang, setLang, setDraft, set, E }) {
	const [add, setAdd] = useState('');
	const tr = d.content?.translations || {};
	const have = Object.keys(tr);
	const avail = Object.keys(builtin?.content?.translations || {}).filter((l) => !tr[l]).sort();
	const base = `content.translations.${lang}`;
	const shape = new Map(leaves(startTexts(builtin, d, lang)));
	for (const c of d.categories || []) {
		if (typeof c.id !== 'string') continue;
		for (const k of ['name', 'description']) if (!shape.has(`categories.${c.id}.${k}`)) shape.set(`categories.${c.id}.${k}`, '');
	}
	for (const [p] of leaves(tr[lang])) shape.set(p, '');
	const addLang = () => {
		const l = add.trim();
		if (!l || tr[l]) return;
		setDraft(setAt(d, `content.translations.${l}`, startTexts(builtin, d, l)));
		setLang(l);
		setAdd('');
	};
	const rtl = RTL.includes(lang.split('-')[0]);
	return html`<fieldset><legend>Texts</legend>
		<${Field} label="Default language" path="content.defaultLanguage" value=${d.content?.defaultLanguage || ''}
			onInput=${set('content.defaultLanguage')} options=${opts(have)} error=${E('content.defaultLanguage')} />
		<div class="row">
			<${Field} label="Language to edit" value=${lang} onInput=${setLang} options=${opts(have)}
				path=${'content.translations'} error=${E('content.translations')} />
			${have.length > 1 && html`<button type="button" onClick=${() => {
				setDraft(setAt(d, base, undefined));
				setLang(have.find((l) => l !== lang));
			}}>Remove ${lang}</button>`}
		</div>
		<div class="row">
			<${Field} label="Add a language" value=${add} onInput=${setAdd} list="langs"
				hint="A built-in language starts from its built-in texts; another from the default language's." />
			<datalist id="langs">${avail.map((l) => html`<option value=${l} />`)}</datalist>
			<button type="button" onClick=${addLang}>Add</button>
		</div>
		${lang && [...shape.keys()].map((p) => {
			const full = `${base}.${p}`;
			const v = getAt(d, full) ?? '';
			const long = /description$/i.test(p) || v.length > 80;
			return html`<${Field} key=${full} label=${p.split('.').join(' › ')} path=${full} value=${v}
				rows=${long ? 3 : undefined} lang=${lang} dir=${rtl ? 'rtl' : 'auto'}
				onInput=${(x) => setDraft(setAt(d, full, x === '' ? undefined : x))} error=${E(full)} />`;
		})}
	</fieldset>`;
}

// "de, at ch" -> ["DE", "AT", "CH"]
const countries = (text) => text.split(/[\s,]+/).filter(Boolean).map((c) => (c === '*' ? c : c.toUpperCase()));

// A list typed as text: the text as typed while it means the document's
// list (so that a comma being typed stays), else the list as text.
function ListField({ value, onList, ...rest }) {
	const list = Array.isArray(value) ? value : [];
	const [text, setText] = useState(list.join(', '));
	const shown = countries(text).join() === list.join() ? text : list.join(', ');
	return html`<${Field} ...${rest} value=${shown} onInput=${(v) => { setText(v); onList(countries(v)); }} />`;
}

function Categories({ d, set, E }) {
	const cats = d.categories || [];
	return html`<fieldset><legend>Categories</legend>
		${cats.map((c, i) => html`<div class="item" key=${i}>
			<${Field} label=${`Category ${i + 1}: id`} path=${`categories.${i}.id`} value=${c.id} onInput=${set(`categories.${i}.id`)} error=${E(`categories.${i}.id`)} />
			<${Field} label=${`Category ${i + 1}: name`} path=${`categories.${i}.name`} value=${c.name} onInput=${set(`categories.${i}.name`)} error=${E(`categories.${i}.name`)} />
			<${Field} label=${`Category ${i + 1}: description`} rows="2" path=${`categories.${i}.description`} value=${c.description}
				onInput=${set(`categories.${i}.description`)} error=${E(`categories.${i}.description`)} />
			<${Field} label=${`Category ${i + 1}: consent model`} path=${`categories.${i}.consentModel`} value=${c.consentModel || 'opt_in'}
				onInput=${set(`categories.${i}.consentModel`)} options=${opts(MODELS)} error=${E(`categories.${i}.consentModel`)} />
			<button type="button" onClick=${() => set(`categories.${i}`)(undefined)}>Remove category ${i + 1}</button>
		</div>`)}
		<button type="button" onClick=${() => set(`categories.${cats.length}`)({ id: '', name: '', description: '', consentModel: 'opt_in' })}>Add a category</button>
	</fieldset>`;
}

function Regions({ d, set, E }) {
	const regs = d.regions || [];
	const cats = (d.categories || []).map((c) => c.id).filter((x) => typeof x === 'string' && x);
	return html`<fieldset><legend>Regions and their models</legend>
		${regs.map((r, i) => {
			const p = `regions.${i}`;
			return html`<div class="item" key=${i}>
				<${Field} label=${`Region ${i + 1}: id`} path=${`${p}.id`} value=${r.id} onInput=${set(`${p}.id`)} error=${E(`${p}.id`)} />
				<${ListField} label=${`Region ${i + 1}: countries`} path=${`${p}.countries`} value=${r.countries}
					hint="Two-letter codes separated by commas; * for every other country."
					onList=${set(`${p}.countries`)} error=${E(`${p}.countries`)} />
				<${ListField} label=${`Region ${i + 1}: subdivisions`} path=${`${p}.subdivisions`} value=${r.subdivisions}
					hint="ISO 3166-2 codes such as US-CA, separated by commas; none for the whole of its countries."
					onList=${(l) => set(`${p}.subdivisions`)(l.length ? l : undefined)} error=${E(`${p}.subdivisions`)} />
				<${Field} label=${`Region ${i + 1}: consent model`} path=${`${p}.consentModel`} value=${r.consentModel || 'opt_in'}
					onInput=${set(`${p}.consentModel`)} options=${opts(MODELS)} error=${E(`${p}.consentModel`)} />
				<${Field} label=${`Region ${i + 1}: language`} path=${`${p}.defaultLanguage`} value=${r.defaultLanguage || ''}
					onInput=${(v) => set(`${p}.defaultLanguage`)(v || undefined)} error=${E(`${p}.defaultLanguage`)}
					options=${[['', 'The document\'s default'], ...opts(Object.keys(d.content?.translations || {}))]} />
				${cats.map((c) => html`<${Field} label=${`Region ${i + 1}: model of ${c}`} path=${`${p}.categoryModels.${c}`}
					value=${r.categoryModels?.[c] || ''} error=${E(`${p}.categoryModels.${c}`)}
					onInput=${(v) => set(`${p}.categoryModels.${c}`)(v || undefined)}
					options=${[['', 'The region\'s model'], ...opts(MODELS)]} />`)}
				<button type="button" onClick=${() => set(p)(undefined)}>Remove region ${i + 1}</button>
			</div>`;
		})}
		<button type="button" onClick=${() => set(`regions.${regs.length}`)({ id: '', countries: [], consentModel: 'opt_in' })}>Add a region</button>
	</fieldset>`;
}

function Rules({ d, set, E }) {
	const cr = 'consentRules';
	const gcm = getAt(d, `${cr}.googleConsentMode`);
	const mode = gcm === undefined ? '' : typeof gcm === 'object' && gcm ? 'map' : String(gcm);
	const cats = (d.categories || []).map((c) => c.id).filter((x) => typeof x === 'string' && x);
	const setMode = (m) => set(`${cr}.googleConsentMode`)(m === '' ? undefined : m === 'map' ? {} : m === 'true');
	return html`<fieldset><legend>Consent rules</legend>
		<${Check} label="Honour Global Privacy Control (GPC)" path=${`${cr}.honorGpc`}
			checked=${getAt(d, `${cr}.honorGpc`)} onChange=${set(`${cr}.honorGpc`)} />
		${E(`${cr}.honorGpc`) && html`<p class="field-error">${E(`${cr}.honorGpc`)}</p>`}
		<${Field} label="Decision expiry (days)" type="number" min="1" path=${`${cr}.expiryDays`} value=${getAt(d, `${cr}.expiryDays`) ?? ''}
			onInput=${(v) => set(`${cr}.expiryDays`)(v === '' ? undefined : Number(v))} error=${E(`${cr}.expiryDays`)} />
		<${Field} label="Google Consent Mode" path=${`${cr}.googleConsentMode`} value=${mode} onInput=${setMode}
			error=${E(`${cr}.googleConsentMode`)}
			options=${[['', 'Not set'], ['false', 'Off'], ['true', 'On, the built-in mapping'], ['map', 'On, this mapping']]} />
		${mode === 'map' && GCM_TYPES.map((t) => html`<${Field} label=${`Consent Mode ${t}`} path=${`${cr}.googleConsentMode.${t}`}
			value=${gcm[t] || ''} onInput=${(v) => set(`${cr}.googleConsentMode.${t}`)(v || undefined)}
			options=${[['', 'Not mapped'], ...opts(cats)]} error=${E(`${cr}.googleConsentMode.${t}`)} />`)}
		<${Check} label="Consent Mode advanced (Google's tags load before a decision, cookieless)"
			path=${`${cr}.googleConsentModeAdvanced`} checked=${getAt(d, `${cr}.googleConsentModeAdvanced`)}
			onChange=${(v) => set(`${cr}.googleConsentModeAdvanced`)(v || undefined)} />
		${E(`${cr}.googleConsentModeAdvanced`) && html`<p class="field-error">${E(`${cr}.googleConsentModeAdvanced`)}</p>`}
	</fieldset>`;
}

function Scripts({ d, set, E }) {
	const rules = d.scriptRules || [];
	const cats = (d.categories || []).map((c) => c.id).filter((x) => typeof x === 'string' && x);
	return html`<fieldset><legend>Script rules</legend>
		<p class="hint">A script, frame or request whose address contains the pattern waits for its category's consent.</p>
		${rules.map((r, i) => html`<div class="item row" key=${i}>
			<${Field} label=${`Rule ${i + 1}: pattern`} path=${`scriptRules.${i}.pattern`} value=${r.pattern}
				onInput=${set(`scriptRules.${i}.pattern`)} error=${E(`scriptRules.${i}.pattern`)} />
			<${Field} label=${`Rule ${i + 1}: category`} path=${`scriptRules.${i}.category`} value=${r.category}
				onInput=${set(`scriptRules.${i}.category`)} options=${opts(cats)} error=${E(`scriptRules.${i}.category`)} />
			<button type="button" onClick=${() => set(`scriptRules.${i}`)(undefined)}>Remove rule ${i + 1}</button>
		</div>`)}
		<button type="button" onClick=${() => set(`scriptRules.${rules.length}`)({ pattern: '', category: cats[0] || '' })}>Add a rule</button>
	</fieldset>`;
}
