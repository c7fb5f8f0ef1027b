// demo.js: prints Consent.get() whenever the state changes.
function show(e) {
	var out = document.getElementById('state');
	out.textContent = e.type + ' at ' + new Date().toLocaleTimeString() + '\n' +
	    JSON.stringify(window.Consent ? window.Consent.get() : e.detail, null, 2);
}
document.addEventListener('consent:ready', show);
document.addEventListener('consent:change', show);
if (window.Consent && window.Consent.ready) {
	window.Consent.ready.then(function () { show({ type: 'ready' }); });
}
