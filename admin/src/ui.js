// ui.js: the few elements every view is made of, rendered by Preact as
// text and attributes only (never HTML): labelled fields, their errors,
// messages, a modal confirmation, a copy button, the view's heading.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { get, problem } from './api.js';

export const html = htm.bind(h);

let seq = 0;
// An id unique in the page, stable for the component's life.
export function useUid(prefix = 'f') {
	const ref = useRef('');
	if (!ref.current) ref.current = `${prefix}${++seq}`;
	return ref.current;
}

// A labelled input (or textarea with rows, or select with options
// [[value, label]...]); error is shown under it and named by
// aria-describedby; path marks it for the editor's errors.
export function Field({ label, value, onInput, type = 'text', rows, options, error, hint, path, ...rest }) {
	const id = useUid();
	const desc = [hint ? id + 'h' : '', error ? id + 'e' : ''].filter(Boolean).join(' ') || undefined;
	const common = { id, 'aria-describedby': desc, 'aria-invalid': error ? 'true' : undefined, 'data-path': path, ...rest };
	let input;
	if (options) {
		input = html`<select ...${common} value=${value ?? ''} onChange=${(e) => onInput(e.currentTarget.value)}>
			${options.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select>`;
	} else if (rows) {
		input = html`<textarea ...${common} rows=${rows} value=${value ?? ''} onInput=${(e) => onInput(e.currentTarget.value)}></textarea>`;
	} else {
		input = html`<input ...${common} type=${type} value=${value ?? ''} onInput=${(e) => onInput(e.currentTarget.value)} />`;
	}
	return html`<div class="field">
		<label for=${id}>${label}</label>
		${input}
		${hint && html`<p class="hint" id=${id + 'h'}>${hint}</p>`}
		${error && html`<p class="field-error" id=${id + 'e'}>${error}</p>`}
	</div>`;
}

export function Check({ label, checked, onChange, path }) {
	const id = useUid();
	return html`<div class="field check">
		<input id=${id} type="checkbox" checked=${!!checked} data-path=${path}
			onChange=${(e) => onChange(e.currentTarget.checked)} />
		<label for=${id}>${label}</label>
	</div>`;
}

// A message for the whole view: an error (role alert) or a notice (status).
export function Note({ error, ok }) {
	if (error) return html`<p class="note error" role="alert">${error}</p>`;
	if (ok) return html`<p class="note ok" role="status">${ok}</p>`;
	return null;
}

// A modal confirmation (the browser's <dialog>: focus kept inside, Escape
// cancels, focus returns to what opened it).
export function Confirm({ open, title, children, confirm, onConfirm, onCancel }) {
	const ref = useRef(null);
	const id = useUid('dlg');
	useEffect(() => {
		const d = ref.current;
		if (!d) return;
		if (open && !d.open) d.showModal();
		else if (!open && d.open) d.close();
	}, [open]);
	return html`<dialog ref=${ref} class="confirm" aria-labelledby=${id}
		onCancel=${(e) => { e.preventDefault(); onCancel(); }}>
		<form method="dialog" onSubmit=${(e) => { e.preventDefault(); onConfirm(); }}>
			<h2 id=${id}>${title}</h2>
			${children}
			<div class="actions">
				<button type="button" onClick=${onCancel}>Cancel</button>
				<button type="submit" class="primary">${confirm}</button>
			</div>
		</form>
	</dialog>`;
}

// Copies text to the clipboard; says so in a live region.
export function CopyButton({ text, label }) {
	const [done, setDone] = useState('');
	const copy = async () => {
		try {
			await navigator.clipboard.writeText(text);
			setDone('Copied.');
		} catch {
			setDone('Copying was refused: select the text and copy it.');
		}
	};
	return html`<button type="button" onClick=${copy}>${label}</button><span class="copied" role="status">${done}</span>`;
}

// The view's heading, focused when the view opens (so that a keyboard or
// screen reader user starts at the new view).
export function Title({ children }) {
	const ref = useRef(null);
	useEffect(() => { ref.current && ref.current.focus(); }, []);
	return html`<h1 tabindex="-1" ref=${ref}>${children}</h1>`;
}

export const fmtTime = (t) => {
	if (t == null || t === '') return '';
	const d = typeof t === 'number' ? new Date(t * 1000) : new Date(t);
	return isNaN(d) ? String(t) : d.toLocaleString();
};

// A form's values: [values, set(name) -> (value) -> void, replace(values)].
export function useForm(init) {
	const [f, setF] = useState(init);
	return [f, (k) => (v) => setF({ ...f, [k]: v }), setF];
}

// The list a GET of route answers under key (null until it came), the
// view's error and notice, and done(answer, notice): an answer's error,
// or the notice and the list loaded again.
export function useList(route, key) {
	const [list, setList] = useState(null);
	const [err, setErr] = useState('');
	const [ok, setOk] = useState('');
	const load = async () => {
		const r = await get(route);
		if (r.status === 200) setList(Array.isArray(r.body[key]) ? r.body[key] : []);
		else setErr(problem(r));
	};
	useEffect(() => { load(); }, [route]);
	// A change is announced once the list shown is the new one.
	const done = async (r, notice) => {
		const p = problem(r);
		setErr(p);
		if (!p) await load();
		setOk(p ? '' : notice);
	};
	return { list, err, ok, done };
}
