// preview.js: the preview of a draft (ADMIN.md 7): the config endpoint's
// answer for it (POST sites/KEY/preview, made by the page that owns the
// draft) handed to the real consent.js in a sandboxed frame.  The frame is
// preview.html (frame.js) with sandbox="allow-scripts" and no
// allow-same-origin: an opaque origin that reaches neither this page, its
// cookie nor the API.  Each answer reloads the frame; once loaded it says
// "ready" and gets {answer, key, scheme} by postMessage (the only channel;
// the frame's origin is opaque, hence the target "*": the answer is what
// any visitor of the site receives anyway).
import { useEffect, useRef } from 'preact/hooks';
import { html } from './ui.js';

let loads = 0;

export function PreviewFrame({ answer, site, scheme, width }) {
	const ref = useRef(null);
	useEffect(() => {
		const frame = ref.current;
		if (!frame || !answer) return undefined;
		const onMessage = (e) => {
			if (e.source !== frame.contentWindow || !e.data || e.data.type !== 'ready') return;
			frame.contentWindow.postMessage({ type: 'answer', answer, key: site, scheme }, '*');
		};
		addEventListener('message', onMessage);
		frame.src = `preview.html?load=${++loads}`;
		return () => removeEventListener('message', onMessage);
	}, [answer, scheme]);
	return html`<iframe ref=${ref} class=${'preview ' + width} title="Preview of the banner"
		sandbox="allow-scripts" data-testid="preview"></iframe>`;
}
