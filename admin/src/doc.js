// doc.js: the config document as plain data (pure): reading and setting a
// value at a path, the paths the API names in its errors, the built-in
// texts as the start of a language.

// A path as the form names it: dot-separated keys and array indexes
// ("categories.1.name").  The API's paths may use brackets or a JSON
// pointer; both become this form.
export function normPath(p) {
	if (typeof p !== 'string') return '';
	let s = p.trim();
	if (s.startsWith('/')) s = s.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
	return s.replace(/^\$\.?/, '').replace(/\[(\d+)\]/g, '.$1').replace(/\["([^"]*)"\]/g, '.$1').replace(/^\./, '');
}

export const split = (p) => (p === '' ? [] : p.split('.'));

export function getAt(obj, p) {
	let o = obj;
	for (const k of split(p)) {
		if (o == null || typeof o !== 'object') return undefined;
		o = o[k];
	}
	return o;
}

// A copy of doc with value at path p (undefined removes it); the objects
// on the way are made when missing.
export function setAt(doc, p, value) {
	const out = structuredClone(doc);
	const keys = split(p);
	let o = out;
	for (let i = 0; i < keys.length - 1; i++) {
		const k = keys[i];
		if (o[k] == null || typeof o[k] !== 'object') o[k] = /^\d+$/.test(keys[i + 1]) ? [] : {};
		o = o[k];
	}
	const last = keys[keys.length - 1];
	if (value === undefined) {
		if (Array.isArray(o)) o.splice(Number(last), 1);
		else delete o[last];
	} else {
		o[last] = value;
	}
	return out;
}

// Of the paths the form shows, the one nearest to the API's error path:
// itself, else its longest ancestor; '' when none is.
export function nearest(paths, errPath) {
	let best = '';
	for (const p of paths) {
		if ((errPath === p || errPath.startsWith(p + '.')) && p.length > best.length) best = p;
	}
	return best;
}

// Every string leaf of a texts object, as [path, value] below prefix.
export function leaves(obj, prefix = '') {
	const out = [];
	for (const [k, v] of Object.entries(obj || {})) {
		const p = prefix ? `${prefix}.${k}` : k;
		if (v && typeof v === 'object' && !Array.isArray(v)) out.push(...leaves(v, p));
		else if (typeof v === 'string') out.push([p, v]);
	}
	return out;
}

// The texts a new language starts from: the built-in document's, when it
// has that language, else the default language's of the draft (to be
// translated), else none.
export function startTexts(builtin, draft, lang) {
	const bt = builtin && builtin.content && builtin.content.translations;
	if (bt && bt[lang]) return structuredClone(bt[lang]);
	const dt = draft.content && draft.content.translations;
	const def = draft.content && draft.content.defaultLanguage;
	if (dt && dt[def]) return structuredClone(dt[def]);
	return {};
}

// A site's draft: the live document, else the built-in one with only its
// default language's texts (more are added one by one).
export function startDraft(live, builtin) {
	if (live) return structuredClone(live);
	const d = structuredClone(builtin || {});
	const tr = d.content && d.content.translations;
	if (tr) {
		const def = d.content.defaultLanguage || 'en';
		d.content.translations = tr[def] ? { [def]: tr[def] } : {};
	}
	return d;
}

export const MODELS = ['opt_in', 'opt_out', 'notice', 'notice_only', 'notice_required', 'exempt'];
export const POSITIONS = ['bottom-full', 'top-full', 'bottom-left', 'bottom-right', 'center-modal'];
export const THEMES = ['light', 'dark', 'auto'];
export const GCM_TYPES = ['ad_storage', 'ad_user_data', 'ad_personalization', 'analytics_storage',
	'functionality_storage', 'personalization_storage', 'security_storage'];
