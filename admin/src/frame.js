// frame.js: the script of preview.html, the page inside the preview's
// sandboxed frame (preview.js).  It asks its parent for the answer to
// show, then loads the real consent.js with that answer as its
// data-config-url (a data: URL: the SDK fetches it as it would the
// config endpoint): ../sdk/consent.js from this page, /sdk/consent.js
// where the dashboard is /admin/, and under the folder of a release
// uploaded into a subfolder (its .htaccess maps sdk/consent.js).  Its CSP lets it connect to data: URLs only, so the
// SDK's consent entries never leave the frame: a preview records nothing.
const SCHEMES = { light: 'light', dark: 'dark' };

function show(msg) {
	const a = msg.answer;
	if (!a || typeof a !== 'object' || typeof msg.key !== 'string') return;
	const scheme = SCHEMES[msg.scheme] || 'light';
	document.documentElement.dataset.scheme = scheme;
	// "auto" follows the visitor's colour scheme: the one chosen here.
	const ap = a.config && a.config.appearance;
	if (ap && ap.theme === 'auto') ap.theme = scheme;
	const s = document.createElement('script');
	s.src = new URL('../sdk/consent.js', location.href).href;
	s.dataset.siteKey = msg.key;
	s.dataset.api = location.origin;
	if (typeof a.resolvedLanguage === 'string') s.dataset.lang = a.resolvedLanguage;
	s.dataset.configUrl = 'data:application/json,' + encodeURIComponent(JSON.stringify(a));
	document.head.appendChild(s);
}

let shown = false;
addEventListener('message', (e) => {
	if (e.source !== parent || shown || !e.data || e.data.type !== 'answer') return;
	shown = true;
	show(e.data);
});
parent.postMessage({ type: 'ready' }, '*');
