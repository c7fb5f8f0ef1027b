// vendors.mjs: the common tags as site operators paste them (issue 29),
// reproduced on local hosts under their real names: each vendor's published
// snippet (its stub and queue, the element it creates, how it sets src,
// where it inserts) and, served by routes() through tracker.mjs, what its
// first stage does when it runs: the later stage it loads, the cookies it
// sets, the hit it sends, by the same means as the vendor's (image,
// sendBeacon, XMLHttpRequest, an iframe).  This project's own code, written
// after the vendors' documentation; no vendor code.  Every URL carries the
// tracker's port after the host (the only change to the snippets' text).
//
// Every reproduced script, when it runs, pushes its stage's name to
// window.ran; a page's requests are told apart by their Referer (a page of
// its own host per test) or, inside the YouTube frame, by the video id.
//
// VENDORS[i]: { id, category: the built-in rules' category of its hosts,
// name, head(n, port), body(n, port), runs(n): the stages
// that run once after "Accept all" and on a returning visit, requests(n):
// [key, first, returning, category]: how often each request is made on the
// view that accepts and on the returning visit (category: its host's, when
// not the tag's: GA4's hits are analytics, its loader marketing),
// markup(n): keys of scripts in the markup (the preload scanner may
// request those before consent, never more than once per page view),
// cookies(n): the first-party cookies it sets (cookieCategory: theirs, when
// not the tag's), first: false when the view that accepts sends no hit
// (ga.js's inline call ran before the script) }.
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const js = (body) => ({ type: 'text/javascript', body });
const ran = (name) => `(window.ran = window.ran || []).push(${name});`;
const COOKIE = 'function cookie(n) { var m = document.cookie.match(new RegExp("(?:^|; )" + n + "=([^;]*)")); return m && m[1]; }';
const first = 'var f = document.getElementsByTagName("script")[0]; f.parentNode.insertBefore(s, f);';

// Hotjar's tracking code (the script's text) for site HJID.
const hotjar = (hjid, P) => `    (function(h,o,t,j,a,r){
        h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};
        h._hjSettings={hjid:${hjid},hjsv:6};
        a=o.getElementsByTagName('head')[0];
        r=o.createElement('script');r.async=1;
        r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;
        a.appendChild(r);
    })(window,document,'https://static.hotjar.com:${P}/c/hotjar-','.js?sv=');
`;
// Google Tag Manager's snippet for container ID.
const gtm = (id, P) => `<!-- Google Tag Manager -->
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
'https://www.googletagmanager.com:${P}/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','${id}');</script>
<!-- End Google Tag Manager -->`;

// The hosts launch({ hosts }) maps to 127.0.0.1.
export const HOSTS = ['www.googletagmanager.com', '*.google-analytics.com', 'connect.facebook.net',
	'www.facebook.com', '*.hotjar.com', 'snap.licdn.com', 'px.ads.linkedin.com', 'analytics.tiktok.com',
	'*.clarity.ms', '*.matomo.cloud', 'matomo.example.org', 'www.youtube.com', 'i.ytimg.com',
	'maps.googleapis.com', 'maps.gstatic.com'];

// The vendors' first and later stages: ROUTES[i] = [host, path, answer(m,
// query, P)] with P the port the request came to.
const ROUTES = [
	['www.googletagmanager.com', /^\/gtm\.js$/, (m, q, P) => js(`(function () {
var id = ${JSON.stringify(q.get('id'))}, w = window, dl = w[${JSON.stringify(q.get('l') || 'dataLayer')}] = w[${JSON.stringify(q.get('l') || 'dataLayer')}] || [];
${ran("'gtm:' + id")}
w.google_tag_manager = w.google_tag_manager || {};
w.google_tag_manager[id] = { dataLayer: { name: 'dataLayer' } };
if (!dl.some(function (e) { return e && e.event === 'gtm.js'; })) return;
// The container's one tag: a Google tag (GA4), loaded as GTM loads it.
var s = document.createElement('script'); s.async = true;
s.src = 'https://www.googletagmanager.com:${P}/gtag/js?id=G-' + id.slice(4, -1) + 'C&l=dataLayer&cx=c';
${first}
// The container reads the queue from now on (its push is its own).
var push = dl.push;
dl.push = function () { return push.apply(dl, arguments); };
dl.push({ event: 'gtm.dom' });
${/^GTM-H\d+X$/.test(q.get('id')) ? customHtml(`<script>\n${hotjar(4000000 + Number(q.get('id').slice(5, -1)), P)}</script>`) : ''}
})();`)],
	['www.googletagmanager.com', /^\/gtag\/js$/, (m, q, P) => js(`(function () {
var id = ${JSON.stringify(q.get('id'))}, byGtm = ${q.get('cx') === 'c'}, l = ${JSON.stringify(q.get('l') || 'dataLayer')};
${ran("'gtag:' + id")}
${COOKIE}
var dl = window[l] = window[l] || [], consent = {};
// Consent Mode: with analytics_storage denied no cookie is read or set and
// the hit is a cookieless ping (gcs=G100).
function pageView() {
	var now = Math.floor(Date.now() / 1000), granted = consent.analytics_storage !== 'denied', cid = '';
	if (granted) {
		var ga = cookie('_ga');
		cid = ga ? ga.slice(6) : Math.floor(Math.random() * 2e9) + '.' + now;
		document.cookie = '_ga=GA1.1.' + cid + '; path=/; max-age=63072000';
		document.cookie = '_ga_' + id.slice(2) + '=GS1.1.' + now + '.1.0.' + now + '.0.0.0; path=/; max-age=63072000';
	}
	navigator.sendBeacon('https://region1.google-analytics.com:${P}/g/collect?v=2&tid=' + id + (granted ? '&cid=' + cid : '') +
		'&gcs=' + (granted ? 'G111' : 'G100') + '&en=page_view&dl=' + encodeURIComponent(location.href) + '&dt=' + encodeURIComponent(document.title));
}
function command(e) {
	if (e && e[0] === 'consent' && (e[1] === 'default' || e[1] === 'update')) {
		for (var k in e[2]) consent[k] = e[2][k];
	} else if (e && e[0] === 'config' && e[1] === id && !byGtm) pageView();
}
for (var i = 0; i < dl.length; i++) command(dl[i]);
if (byGtm) pageView();
var push = dl.push;
dl.push = function () {
	var r = push.apply(dl, arguments);
	for (var i = 0; i < arguments.length; i++) command(arguments[i]);
	return r;
};
})();`)],
	['connect.facebook.net', /^\/en_US\/fbevents\.js$/, (m, q, P) => js(`(function () {
${ran("'fbevents'")}
${COOKIE}
var fbq = window.fbq, ready = {}, waiting = {};
function fbp() {
	var v = cookie('_fbp');
	if (!v) { v = 'fb.1.' + Date.now() + '.' + Math.floor(Math.random() * 2e9); document.cookie = '_fbp=' + v + '; path=/; max-age=7776000'; }
	return v;
}
function send(id, ev) {
	new Image().src = 'https://www.facebook.com:${P}/tr/?id=' + id + '&ev=' + ev + '&dl=' + encodeURIComponent(location.href) + '&fbp=' + fbp();
}
function call(a) {
	if (a[0] === 'init') {
		var id = String(a[1]);
		ready[id] = false; waiting[id] = [];
		var s = document.createElement('script'); s.async = true;
		s.src = 'https://connect.facebook.net:${P}/signals/config/' + id + '?v=2.9.176&r=stable';
		${first}
	} else if (a[0] === 'track') {
		for (var k in ready) if (ready[k]) send(k, a[1]); else waiting[k].push(a[1]);
	}
}
fbq.registerPlugin = function (name) {
	var id = name.replace('config:', '');
	ready[id] = true;
	waiting[id].forEach(function (ev) { send(id, ev); });
	waiting[id] = [];
};
fbq.callMethod = function () { call(arguments); };
var queue = fbq.queue.slice(); fbq.queue.length = 0;
queue.forEach(call);
})();`)],
	['connect.facebook.net', /^\/signals\/config\/(\d+)$/, (m) => js(`${ran(JSON.stringify('fbconfig:' + m[1]))}
fbq.registerPlugin(${JSON.stringify('config:' + m[1])}, { __fbEventsPlugin: 1 });`)],
	['static.hotjar.com', /^\/c\/hotjar-(\d+)\.js$/, (m, q, P) => js(`${ran(JSON.stringify('hotjar:' + m[1]))}
window.hjSiteSettings = window.hjSiteSettings || { site_id: ${m[1]}, r: 1, rec_value: 1, state_change_listen_mode: 'automatic' };
window.hjBootstrap = window.hjBootstrap || function (base, file, sv) {
	var s = document.createElement('script');
	s.src = base + file; s.charset = 'utf-8';
	document.getElementsByTagName('head')[0].appendChild(s);
	window.hjBootstrapCalled = true;
};
hjBootstrap('https://script.hotjar.com:${P}/', 'modules.ffc3ab1e47a4b0ca3c3c.js', ${JSON.stringify(q.get('sv') || '6')});`)],
	['script.hotjar.com', /^\/modules\.ffc3ab1e47a4b0ca3c3c\.js$/, (m, q, P) => js(`(function () {
${ran("'hjmodules'")}
var id = window.hjSiteSettings.site_id, now = Date.now();
document.cookie = '_hjSessionUser_' + id + '=' + encodeURIComponent(JSON.stringify({ id: Math.random().toString(16).slice(2), created: now, existing: false })) + '; path=/; max-age=31536000';
document.cookie = '_hjSession_' + id + '=' + encodeURIComponent(JSON.stringify({ id: Math.random().toString(16).slice(2), c: now, s: 0, r: 0, sb: 0 })) + '; path=/; max-age=1800';
var x = new XMLHttpRequest();
x.open('POST', 'https://in.hotjar.com:${P}/api/v2/client/sites/' + id + '/visit-data?sv=6');
x.setRequestHeader('Content-Type', 'text/plain; charset=UTF-8');
x.send(JSON.stringify({ window_width: innerWidth, window_height: innerHeight, url: location.href, user_id: id }));
var q = (window.hj && window.hj.q) || [];
window.hj = function () {};
window.hj.q = q;
})();`)],
	['snap.licdn.com', /^\/li\.lms-analytics\/insight\.min\.js$/, (m, q, P) => js(`(function () {
${ran("'insight'")}
var ids = window._linkedin_data_partner_ids || [], q = (window.lintrk && window.lintrk.q) || [];
ids.forEach(function (pid) {
	new Image().src = 'https://px.ads.linkedin.com:${P}/collect?v=2&fmt=js&pid=' + pid + '&time=' + Date.now() + '&url=' + encodeURIComponent(location.href);
});
window.lintrk = function (a, b) {};
q.forEach(function (c) { window.lintrk(c[0], c[1]); });
})();`)],
	['analytics.tiktok.com', /^\/i18n\/pixel\/events\.js$/, (m, q, P) => js(`(function () {
var id = ${JSON.stringify(q.get('sdkid'))};
${ran("'ttevents:' + id")}
var s = document.createElement('script'); s.type = 'text/javascript'; s.async = true;
s.src = 'https://analytics.tiktok.com:${P}/i18n/pixel/static/main.MWIwNWJkYjZlMQ.js';
${first}
})();`)],
	['analytics.tiktok.com', /^\/i18n\/pixel\/static\/main\.MWIwNWJkYjZlMQ\.js$/, (m, q, P) => js(`(function () {
${ran("'ttmain'")}
${COOKIE}
var ttq = window[window.TiktokAnalyticsObject || 'ttq'];
var ttp = cookie('_ttp') || Math.random().toString(36).slice(2) + Date.now().toString(36);
document.cookie = '_ttp=' + ttp + '; path=/; max-age=33696000';
Object.keys(ttq._i || {}).forEach(function (id) {
	ttq.filter(function (c) { return c[0] === 'page'; }).forEach(function () {
		navigator.sendBeacon('https://analytics.tiktok.com:${P}/api/v2/pixel', JSON.stringify({ event: 'Pageview',
			context: { pixel: { code: id }, page: { url: location.href }, user: { anonymous_id: ttp } } }));
	});
});
})();`)],
	['www.clarity.ms', /^\/tag\/(\w+)$/, (m, q, P) => js(`${ran(JSON.stringify('claritytag:' + m[1]))}
!function (c, l, a, r, i) {
	l[c]('start', { projectId: ${JSON.stringify(m[1])}, upload: 'https://q.clarity.ms:${P}/collect', expire: 365, cookies: ['_uetmsclkid', '_uetvid'], track: true, content: true });
	(i = a.createElement(r)).async = 1; i.src = 'https://scripts.clarity.ms:${P}/0.8.9/clarity.js';
	(r = a.getElementsByTagName(r)[0]).parentNode.insertBefore(i, r);
}('clarity', window, document, 'script');`)],
	['scripts.clarity.ms', /^\/0\.8\.9\/clarity\.js$/, () => js(`(function () {
${ran("'clarity'")}
var q = (window.clarity && window.clarity.q) || [], start = null;
for (var i = 0; i < q.length; i++) if (q[i][0] === 'start') start = q[i][1];
window.clarity = function () {};
if (!start) return;
var now = Date.now(), id = Math.random().toString(36).slice(2, 9);
document.cookie = '_clck=' + id + '%7C2%7Cf' + '%7C0%7C' + now + '; path=/; max-age=31536000';
document.cookie = '_clsk=' + Math.random().toString(36).slice(2, 9) + '%7C' + now + '%7C1%7C1; path=/; max-age=86400';
var x = new XMLHttpRequest();
x.open('POST', start.upload);
x.send(JSON.stringify({ e: { v: '0.8.9', p: start.projectId, u: id, url: location.href } }));
})();`)],
	[/\.matomo\.cloud$|^matomo\.example\.org$/, /^(?:\/[\w.-]+\.matomo\.cloud)?\/matomo\.js$/, () => js(`(function () {
${ran("'matomo'")}
${COOKIE}
var paq = window._paq || [], url = null, site = null, views = 0;
paq.forEach(function (c) {
	if (c[0] === 'setTrackerUrl') url = c[1];
	else if (c[0] === 'setSiteId') site = c[1];
	else if (c[0] === 'trackPageView') views++;
});
function track() {
	var now = Math.floor(Date.now() / 1000), name = '_pk_id.' + site + '.1fff', id = cookie(name);
	if (!id) id = Math.random().toString(16).slice(2, 18) + '.' + now;
	document.cookie = name + '=' + id + '; path=/; max-age=33955200';
	document.cookie = '_pk_ses.' + site + '.1fff=1; path=/; max-age=1800';
	new Image().src = url + '?action_name=' + encodeURIComponent(document.title) + '&idsite=' + site + '&rec=1&r=' +
		Math.random().toString().slice(2, 8) + '&_id=' + id.split('.')[0] + '&url=' + encodeURIComponent(location.href);
}
while (views-- > 0) track();
window._paq = { push: function (c) { if (c[0] === 'trackPageView') track(); } };
})();`)],
	[/\.matomo\.cloud$|^matomo\.example\.org$/, /^\/matomo\.php$/, () => ({ type: 'image/gif', body: GIF })],
	[/^(ssl|www)\.google-analytics\.com$/, /^\/ga\.js$/, (m, q, P) => js(`(function () {
${ran("'gajs'")}
${COOKIE}
function Tracker(acct) { this.acct = acct; }
Tracker.prototype._trackPageview = function () {
	var now = Math.floor(Date.now() / 1000);
	var utma = cookie('__utma') || '1.' + Math.floor(Math.random() * 2e9) + '.' + now + '.' + now + '.' + now + '.1';
	document.cookie = '__utma=' + utma + '; path=/; max-age=63072000';
	document.cookie = '__utmb=1.1.10.' + now + '; path=/; max-age=1800';
	document.cookie = '__utmc=1; path=/';
	document.cookie = '__utmz=1.' + now + '.1.1.utmcsr=(direct)|utmccn=(direct)|utmcmd=(none); path=/; max-age=15768000';
	var i = new Image(1, 1);
	i.src = 'https://www.google-analytics.com:${P}/__utm.gif?utmwv=5.7.2&utmn=' + Math.floor(Math.random() * 2e9) + '&utmhn=' +
		location.hostname + '&utmp=' + encodeURIComponent(location.pathname) + '&utmac=' + this.acct + '&utmcc=' + encodeURIComponent('__utma=' + utma + ';');
};
Tracker.prototype._setAccount = function (a) { this.acct = a; };
var trackers = [];
window._gat = { _getTracker: function (a) { var t = new Tracker(a); trackers.push(t); return t; }, _createTracker: function (a) { return window._gat._getTracker(a); } };
var q = window._gaq, t = new Tracker(null);
function run(c) { if (typeof c === 'function') c(); else if (t[c[0]]) t[c[0]].apply(t, c.slice(1)); }
if (q && q.length) q.forEach(run);
window._gaq = { push: function () { for (var i = 0; i < arguments.length; i++) run(arguments[i]); } };
})();`)],
	[/^www\.google-analytics\.com$/, /^\/__utm\.gif$/, () => ({ type: 'image/gif', body: GIF })],
	['region1.google-analytics.com', /^\/g\/collect$/, () => ({ type: 'text/plain', body: '' })],
	['www.facebook.com', /^\/tr\/?$/, () => ({ type: 'image/gif', body: GIF })],
	['px.ads.linkedin.com', /^\/collect$/, () => ({ type: 'image/gif', body: GIF })],
	['in.hotjar.com', /^\/api\/v2\/client\/sites\/\d+\/visit-data$/, () => ({ type: 'application/json', body: '{"success":true}' })],
	['analytics.tiktok.com', /^\/api\/v2\/pixel$/, () => ({ type: 'application/json', body: '{"code":0}' })],
	['q.clarity.ms', /^\/collect$/, () => ({ type: 'text/plain', body: '' })],
	['www.youtube.com', /^\/iframe_api$/, (m, q, P) => js(`${ran("'ytapi'")}
var scriptUrl = 'https:\\/\\/www.youtube.com:${P}\\/s\\/player\\/5b22937f\\/www-widgetapi.vflset\\/www-widgetapi.js';
try { var ttPolicy = window.trustedTypes && window.trustedTypes.createPolicy('youtube-widget-api', { createScriptURL: function (x) { return x; } }); scriptUrl = ttPolicy ? ttPolicy.createScriptURL(scriptUrl) : scriptUrl; } catch (e) {}
var YT; if (!window['YT']) YT = { loading: 0, loaded: 0 };
var YTConfig; if (!window['YTConfig']) YTConfig = { 'host': 'http://www.youtube.com' };
if (!YT.loading) {
	YT.loading = 1;
	(function () {
		var l = [];
		YT.ready = function (f) { if (YT.loaded) f(); else l.push(f); };
		window.onYTReady = function () { YT.loaded = 1; var i = 0; for (; i < l.length; i++) try { l[i](); } catch (e) {} };
		YT.setConfig = function (c) { var k; for (k in c) if (c.hasOwnProperty(k)) YTConfig[k] = c[k]; };
		var a = document.createElement('script');
		a.type = 'text/javascript'; a.id = 'www-widgetapi-script'; a.src = scriptUrl; a.async = true;
		var c = document.currentScript;
		if (c) { var n = c.nonce || c.getAttribute('nonce'); if (n) a.setAttribute('nonce', n); }
		var b = document.getElementsByTagName('script')[0];
		b.parentNode.insertBefore(a, b);
	})();
}
window.YT = YT; window.YTConfig = YTConfig;`)],
	['www.youtube.com', /^\/s\/player\/5b22937f\/www-widgetapi\.vflset\/www-widgetapi\.js$/, (m, q, P) => js(`(function () {
${ran("'ytwidget'")}
function Player(el, o) {
	if (typeof el === 'string') el = document.getElementById(el);
	var f = document.createElement('iframe'), self = this;
	f.id = el.id; f.width = o.width || 640; f.height = o.height || 360;
	f.setAttribute('frameborder', '0'); f.title = 'YouTube video player';
	f.allow = 'accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share';
	f.referrerPolicy = 'strict-origin-when-cross-origin';
	f.src = 'https://www.youtube.com:${P}/embed/' + o.videoId + '?enablejsapi=1&origin=' + encodeURIComponent(location.origin) + '&widgetid=1';
	f.addEventListener('load', function () { if (o.events && o.events.onReady) o.events.onReady({ target: self }); });
	el.parentNode.replaceChild(f, el);
}
YT.Player = Player;
YT.PlayerState = { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 };
window.onYTReady();
if (typeof window.onYouTubeIframeAPIReady === 'function') window.onYouTubeIframeAPIReady();
})();`)],
	['www.youtube.com', /^\/embed\/([\w-]+)$/, (m, q, P) => ({ type: 'text/html', body: `<!doctype html><html><head><title>YouTube</title></head><body>
<img alt="" src="https://i.ytimg.com:${P}/vi/${m[1]}/hqdefault.jpg">
<script>navigator.sendBeacon('https://www.youtube.com:${P}/api/stats/qoe?fmt=398&docid=${m[1]}&event=streamingstats');</script>
</body></html>` })],
	['www.youtube.com', /^\/api\/stats\/qoe$/, () => ({ type: 'text/plain', body: '' })],
	['i.ytimg.com', /^\/vi\/[\w-]+\/hqdefault\.jpg$/, () => ({ type: 'image/gif', body: GIF })],
	['maps.googleapis.com', /^\/maps\/api\/js$/, (m, q, P) => js(`(function () {
${ran("'mapsapi'")}
var key = ${JSON.stringify(q.get('key'))}, cb = ${JSON.stringify(q.get('callback') || '')};
var g = window.google = window.google || {}, maps = g.maps = g.maps || {}, libs = null;
var main = new Promise(function (done) { maps.__main = done; });
maps.__key = key;
maps.importLibrary = function (name) { return main.then(function () { return libs(name); }); };
maps.__libs = function (f) { libs = f; };
var s = document.createElement('script');
s.src = 'https://maps.googleapis.com:${P}/maps-api-v3/api/js/59/2/main.js';
document.head.appendChild(s);
main.then(function () {
	var f = cb.split('.').reduce(function (o, k) { return o && o[k]; }, window);
	if (typeof f === 'function') f();
});
})();`)],
	['maps.googleapis.com', /^\/maps-api-v3\/api\/js\/59\/2\/main\.js$/, (m, q, P) => js(`(function () {
${ran("'mapsmain'")}
var maps = window.google.maps, key = maps.__key;
function Map(el, o) {
	this.el = el;
	for (var i = 0; i < 2; i++) {
		var t = document.createElement('img'); t.alt = '';
		t.src = 'https://maps.googleapis.com:${P}/maps/vt?pb=!1m5!1m4!1i' + (o.zoom || 8) + '!2i' + i + '!3i0!4i256&key=' + key;
		el.appendChild(t);
	}
	new Image().src = 'https://maps.gstatic.com:${P}/mapfiles/transparent.png';
	var a = document.createElement('script');
	a.src = 'https://maps.googleapis.com:${P}/maps/api/js/AuthenticationService.Authenticate?1s' + encodeURIComponent(location.href) + '&4s' + key + '&callback=_xdc_._auth&key=' + key + '&token=1';
	document.head.appendChild(a);
}
window._xdc_ = window._xdc_ || {};
window._xdc_._auth = function () { (window.ran = window.ran || []).push('mapsauth'); };
maps.Map = Map;
maps.__libs(function (name) { return name === 'maps' ? { Map: Map } : {}; });
maps.__main();
})();`)],
	['maps.googleapis.com', /^\/maps\/api\/js\/AuthenticationService\.Authenticate$/, () => js('_xdc_._auth && _xdc_._auth([1, null, 0, null, null, [1]]);')],
	['maps.googleapis.com', /^\/maps\/vt$/, () => ({ type: 'image/gif', body: GIF })],
	['maps.gstatic.com', /^\/mapfiles\/transparent\.png$/, () => ({ type: 'image/gif', body: GIF })],
];

// A Custom HTML tag as the container fires it: its HTML parsed in a
// detached element, each script made anew (attributes and text copied) and
// appended to <body>, the other nodes moved there.
function customHtml(html) {
	return `var box = document.createElement('div');
box.innerHTML = ${JSON.stringify(html)};
Array.prototype.slice.call(box.childNodes).forEach(function (n) {
	var parent = document.body || document.head;
	if (n.nodeName !== 'SCRIPT') { parent.appendChild(n); return; }
	var s = document.createElement('script');
	for (var i = 0; i < n.attributes.length; i++) s.setAttribute(n.attributes[i].name, n.attributes[i].value);
	s.text = n.text;
	parent.appendChild(s);
});`;
}

// startTracker({ routes }): the vendors' answers.
export function routes(req, u, host) {
	const port = String(req.headers.host || '').replace(/^.*:/, '');
	for (const [h, p, answer] of ROUTES) {
		if (typeof h === 'string' ? h !== host : !h.test(host)) continue;
		const m = p.exec(u.pathname);
		if (m) return answer(m, u.searchParams, port);
	}
	return null;
}

// A logged request's key: host and path, and the id its query names.
export function requestKey(e) {
	const q = new URLSearchParams(e.query);
	const p = ['id', 'tid', 'sdkid', 'pid', 'idsite', 'utmac'].find((k) => q.has(k));
	return `${e.host}${e.path}${p ? `?${p}=${q.get(p)}` : ''}`;
}

// The ids of test N.
export const ids = (n) => ({
	gtm: `GTM-K${n}X`, gtmGa: `G-K${n}C`, ga4: `G-K${n}A`, pixel: String(1000000000000 + n), hotjar: 3000000 + n,
	linkedin: 500000 + n, tiktok: `C${n}K0TT0TEST`, clarity: `k${n}clar`, matomo: `site-k${n}`, ua: `UA-${n}000-1`,
	video: `vidk${n}x`, maps: `AIzaK${n}testkey`,
});

// Matomo's tracking code, its tracker at U, its script at SRC (an
// expression): On-Premise's has u+'matomo.js', Matomo Cloud's its CDN.
const matomo = (n, u, src) => `<!-- Matomo -->
<script>
  var _paq = window._paq = window._paq || [];
  /* tracker methods like "setCustomDimension" should be called before "trackPageView" */
  _paq.push(['trackPageView']);
  _paq.push(['enableLinkTracking']);
  (function() {
    var u="${u}";
    _paq.push(['setTrackerUrl', u+'matomo.php']);
    _paq.push(['setSiteId', '${n}']);
    var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0];
    g.async=true; g.src=${src}; s.parentNode.insertBefore(g,s);
  })();
</script>
<!-- End Matomo Code -->`;

export const VENDORS = [
	{
		id: 'gtm', category: 'marketing', name: 'the Tag Manager container and the GA4 tag it loads',
		head: (n, P) => gtm(ids(n).gtm, P),
		body: (n, P) => `<!-- Google Tag Manager (noscript) -->
<noscript><iframe src="https://www.googletagmanager.com:${P}/ns.html?id=${ids(n).gtm}"
height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>
<!-- End Google Tag Manager (noscript) -->`,
		runs: (n) => [`gtm:${ids(n).gtm}`, `gtag:${ids(n).gtmGa}`],
		requests: (n) => [[`www.googletagmanager.com/gtm.js?id=${ids(n).gtm}`, 1, 1],
			[`www.googletagmanager.com/gtag/js?id=${ids(n).gtmGa}`, 1, 1],
			[`region1.google-analytics.com/g/collect?tid=${ids(n).gtmGa}`, 1, 1, 'analytics']],
		cookies: (n) => ['_ga', `_ga_${ids(n).gtmGa.slice(2)}`], cookieCategory: 'analytics',
	},
	{
		id: 'gtag', category: 'marketing', name: 'GA4\'s gtag.js in the markup',
		head: (n, P) => `<!-- Google tag (gtag.js) -->
<script async src="https://www.googletagmanager.com:${P}/gtag/js?id=${ids(n).ga4}"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());

  gtag('config', '${ids(n).ga4}');
</script>`,
		runs: (n) => [`gtag:${ids(n).ga4}`],
		requests: (n) => [[`region1.google-analytics.com/g/collect?tid=${ids(n).ga4}`, 1, 1, 'analytics']],
		markup: (n) => [`www.googletagmanager.com/gtag/js?id=${ids(n).ga4}`],
		cookies: (n) => ['_ga', `_ga_${ids(n).ga4.slice(2)}`], cookieCategory: 'analytics',
	},
	{
		id: 'meta', category: 'marketing', name: 'the Meta Pixel',
		head: (n, P) => `<!-- Meta Pixel Code -->
<script>
!function(f,b,e,v,n,t,s)
{if(f.fbq)return;n=f.fbq=function(){n.callMethod?
n.callMethod.apply(n,arguments):n.queue.push(arguments)};
if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';
n.queue=[];t=b.createElement(e);t.async=!0;
t.src=v;s=b.getElementsByTagName(e)[0];
s.parentNode.insertBefore(t,s)}(window, document,'script',
'https://connect.facebook.net:${P}/en_US/fbevents.js');
fbq('init', '${ids(n).pixel}');
fbq('track', 'PageView');
</script>
<noscript><img height="1" width="1" style="display:none"
src="https://www.facebook.com:${P}/tr?id=${ids(n).pixel}&ev=PageView&noscript=1"
/></noscript>
<!-- End Meta Pixel Code -->`,
		runs: (n) => ['fbevents', `fbconfig:${ids(n).pixel}`],
		requests: (n) => [['connect.facebook.net/en_US/fbevents.js', 1, 1],
			[`connect.facebook.net/signals/config/${ids(n).pixel}`, 1, 1],
			[`www.facebook.com/tr/?id=${ids(n).pixel}`, 1, 1]],
		cookies: () => ['_fbp'],
	},
	{
		id: 'hotjar', category: 'analytics', name: 'Hotjar',
		head: (n, P) => `<!-- Hotjar Tracking Code for my site -->
<script>
${hotjar(ids(n).hotjar, P)}</script>`,
		runs: (n) => [`hotjar:${ids(n).hotjar}`, 'hjmodules'],
		requests: (n) => [[`static.hotjar.com/c/hotjar-${ids(n).hotjar}.js`, 1, 1],
			['script.hotjar.com/modules.ffc3ab1e47a4b0ca3c3c.js', 1, 1],
			[`in.hotjar.com/api/v2/client/sites/${ids(n).hotjar}/visit-data`, 1, 1]],
		cookies: (n) => [`_hjSessionUser_${ids(n).hotjar}`, `_hjSession_${ids(n).hotjar}`],
	},
	{
		id: 'linkedin', category: 'marketing', name: 'the LinkedIn Insight Tag',
		head: (n, P) => `<script type="text/javascript">
_linkedin_partner_id = "${ids(n).linkedin}";
window._linkedin_data_partner_ids = window._linkedin_data_partner_ids || [];
window._linkedin_data_partner_ids.push(_linkedin_partner_id);
</script><script type="text/javascript">
(function(l) {
if (!l){window.lintrk = function(a,b){window.lintrk.q.push([a,b])};
window.lintrk.q=[]}
var s = document.getElementsByTagName("script")[0];
var b = document.createElement("script");
b.type = "text/javascript";b.async = true;
b.src = "https://snap.licdn.com:${P}/li.lms-analytics/insight.min.js";
s.parentNode.insertBefore(b, s);})(window.lintrk);
</script>
<noscript>
<img height="1" width="1" style="display:none;" alt="" src="https://px.ads.linkedin.com:${P}/collect/?pid=${ids(n).linkedin}&fmt=gif" />
</noscript>`,
		runs: () => ['insight'],
		requests: (n) => [['snap.licdn.com/li.lms-analytics/insight.min.js', 1, 1],
			[`px.ads.linkedin.com/collect?pid=${ids(n).linkedin}`, 1, 1]],
		cookies: () => [],
	},
	{
		id: 'tiktok', category: 'marketing', name: 'the TikTok pixel',
		head: (n, P) => `<script>
!function (w, d, t) {
  w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track","identify","instances","debug","on","off","once","ready","alias","group","enableCookie","disableCookie","holdConsent","revokeConsent","grantConsent"],ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.instance=function(t){for(
var e=ttq._i[t]||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,ttq.methods[n]);return e},ttq.load=function(e,n){var r="https://analytics.tiktok.com:${P}/i18n/pixel/events.js",o=n&&n.partner;ttq._i=ttq._i||{},ttq._i[e]=[],ttq._i[e]._u=r,ttq._t=ttq._t||{},ttq._t[e]=+new Date,ttq._o=ttq._o||{},ttq._o[e]=n||{};n=document.createElement("script")
;n.type="text/javascript",n.async=!0,n.src=r+"?sdkid="+e+"&lib="+t;e=document.getElementsByTagName("script")[0];e.parentNode.insertBefore(n,e)};

  ttq.load('${ids(n).tiktok}');
  ttq.page();
}(window, document, 'ttq');
</script>`,
		runs: (n) => [`ttevents:${ids(n).tiktok}`, 'ttmain'],
		requests: (n) => [[`analytics.tiktok.com/i18n/pixel/events.js?sdkid=${ids(n).tiktok}`, 1, 1],
			['analytics.tiktok.com/i18n/pixel/static/main.MWIwNWJkYjZlMQ.js', 1, 1],
			['analytics.tiktok.com/api/v2/pixel', 1, 1]],
		cookies: () => ['_ttp'],
	},
	{
		id: 'clarity', category: 'analytics', name: 'Microsoft Clarity',
		head: (n, P) => `<script type="text/javascript">
    (function(c,l,a,r,i,t,y){
        c[a]=c[a]||function(){(c[a].q=c[a].q||[]).push(arguments)};
        t=l.createElement(r);t.async=1;t.src="https://www.clarity.ms:${P}/tag/"+i;
        y=l.getElementsByTagName(r)[0];y.parentNode.insertBefore(t,y);
    })(window, document, "clarity", "script", "${ids(n).clarity}");
</script>`,
		runs: (n) => [`claritytag:${ids(n).clarity}`, 'clarity'],
		requests: (n) => [[`www.clarity.ms/tag/${ids(n).clarity}`, 1, 1], ['scripts.clarity.ms/0.8.9/clarity.js', 1, 1],
			['q.clarity.ms/collect', 1, 1]],
		cookies: () => ['_clck', '_clsk'],
	},
	{
		id: 'matomo', category: 'analytics', name: 'Matomo (Matomo Cloud\'s snippet)',
		head: (n, P) => matomo(n, `https://${ids(n).matomo}.matomo.cloud:${P}/`,
			`'https://cdn.matomo.cloud:${P}/${ids(n).matomo}.matomo.cloud/matomo.js'`),
		runs: () => ['matomo'],
		requests: (n) => [[`cdn.matomo.cloud/${ids(n).matomo}.matomo.cloud/matomo.js`, 1, 1],
			[`${ids(n).matomo}.matomo.cloud/matomo.php?idsite=${n}`, 1, 1]],
		cookies: (n) => [`_pk_id.${n}.1fff`, `_pk_ses.${n}.1fff`],
	},
	{
		id: 'gajs', category: 'analytics', name: 'the legacy ga.js snippet (document.write)',
		head: (n, P) => `<script type="text/javascript">
var gaJsHost = (("https:" == document.location.protocol) ? "https://ssl." : "http://www.");
document.write(unescape("%3Cscript src='" + gaJsHost + "google-analytics.com:${P}/ga.js' type='text/javascript'%3E%3C/script%3E"));
</script>
<script type="text/javascript">
try {
var pageTracker = _gat._getTracker("${ids(n).ua}");
pageTracker._trackPageview();
} catch(err) {}</script>`,
		runs: () => ['gajs'],
		requests: (n) => [['www.google-analytics.com/ga.js', 1, 1], [`www.google-analytics.com/__utm.gif?utmac=${ids(n).ua}`, 0, 1]],
		cookies: () => ['__utma', '__utmb', '__utmc', '__utmz'],
		first: false,
	},
	{
		id: 'youtube', category: 'functional', name: 'a YouTube player by the IFrame Player API',
		head: () => `<script>
  function onYouTubeIframeAPIReady() {
    window.player = new YT.Player(document.querySelector('[data-video]').id, {
      height: '390', width: '640', videoId: document.querySelector('[data-video]').getAttribute('data-video'),
      events: { onReady: function () { (window.ran = window.ran || []).push('ytready'); } }
    });
  }
</script>`,
		body: (n, P) => `<div id="player-${n}" data-video="${ids(n).video}"></div>
<script>
  var tag = document.createElement('script');
  tag.src = "https://www.youtube.com:${P}/iframe_api";
  var firstScriptTag = document.getElementsByTagName('script')[0];
  firstScriptTag.parentNode.insertBefore(tag, firstScriptTag);
</script>`,
		runs: () => ['ytapi', 'ytwidget', 'ytready'],
		requests: (n) => [['www.youtube.com/iframe_api', 1, 1],
			['www.youtube.com/s/player/5b22937f/www-widgetapi.vflset/www-widgetapi.js', 1, 1],
			[`www.youtube.com/embed/${ids(n).video}`, 1, 1], [`i.ytimg.com/vi/${ids(n).video}/hqdefault.jpg`, 1, 1],
			['www.youtube.com/api/stats/qoe', 1, 1]],
		cookies: () => [],
	},
	{
		id: 'maps', category: 'functional', name: 'a Google map by the Maps JavaScript API\'s bootstrap loader',
		head: (n, P) => `<script>
  (g=>{var h,a,k,p="The Google Maps JavaScript API",c="google",l="importLibrary",q="__ib__",m=document,b=window;b=b[c]||(b[c]={});var d=b.maps||(b.maps={}),r=new Set,e=new URLSearchParams,u=()=>h||(h=new Promise(async(f,n)=>{await (a=m.createElement("script"));e.set("libraries",[...r]+"");for(k in g)e.set(k.replace(/[A-Z]/g,t=>"_"+t[0].toLowerCase()),g[k]);e.set("callback",c+".maps."+q);a.src=\`https://maps.\${c}apis.com:${P}/maps/api/js?\`+e;d[q]=f;a.onerror=()=>h=n(Error(p+" could not load."));a.nonce=m.querySelector("script[nonce]")?.nonce||"";m.head.append(a)}));d[l]?console.warn(p+" only loads once. Ignoring:",g):d[l]=(f,...n)=>r.add(f)&&u().then(()=>d[l](f,...n))})({
    key: "${ids(n).maps}",
    v: "weekly",
  });
</script>`,
		body: () => `<div id="map" class="map"></div>
<script>
  async function initMap() {
    const { Map } = await google.maps.importLibrary("maps");
    window.map = new Map(document.getElementById("map"), { center: { lat: 48.2082, lng: 16.3738 }, zoom: 8 });
    (window.ran = window.ran || []).push('mapready');
  }
  initMap();
</script>`,
		runs: () => ['mapsapi', 'mapsmain', 'mapready', 'mapsauth'],
		requests: () => [['maps.googleapis.com/maps/api/js', 1, 1], ['maps.googleapis.com/maps-api-v3/api/js/59/2/main.js', 1, 1],
			['maps.googleapis.com/maps/vt', 2, 2], ['maps.gstatic.com/mapfiles/transparent.png', 1, 1],
			['maps.googleapis.com/maps/api/js/AuthenticationService.Authenticate', 1, 1]],
		cookies: () => [],
	},
];

// Matomo On-Premise: the same snippet with the operator's own Matomo host,
// which no built-in rule can know; the site publishes a rule for it.
export const SELF_HOSTED_MATOMO = {
	id: 'matomo-self', category: 'analytics', name: 'Matomo On-Premise (its host under the operator\'s rule)',
	head: (n, P) => matomo(n, `//matomo.example.org:${P}/`, "u+'matomo.js'"),
	runs: () => ['matomo'],
	requests: (n) => [['matomo.example.org/matomo.js', 1, 1], [`matomo.example.org/matomo.php?idsite=${n}`, 1, 1]],
	cookies: (n) => [`_pk_id.${n}.1fff`, `_pk_ses.${n}.1fff`],
};

// A Tag Manager container that also carries a Custom HTML tag with
// Hotjar's tracking code (how many sites deploy Hotjar or a pixel): the
// container is marketing, Hotjar's hosts analytics.
export const GTM_CUSTOM_HTML = {
	id: 'gtm-html', category: 'marketing', name: 'a Tag Manager container with its GA4 tag and a Custom HTML tag (Hotjar)',
	head: (n, P) => gtm(`GTM-H${n}X`, P),
	runs: (n) => [`gtm:GTM-H${n}X`, `gtag:G-H${n}C`, [`hotjar:${4000000 + n}`, 'analytics'], ['hjmodules', 'analytics']],
	requests: (n) => [[`www.googletagmanager.com/gtm.js?id=GTM-H${n}X`, 1, 1],
		[`www.googletagmanager.com/gtag/js?id=G-H${n}C`, 1, 1],
		[`region1.google-analytics.com/g/collect?tid=G-H${n}C`, 1, 1, 'analytics'],
		[`static.hotjar.com/c/hotjar-${4000000 + n}.js`, 1, 1, 'analytics'],
		['script.hotjar.com/modules.ffc3ab1e47a4b0ca3c3c.js', 1, 1, 'analytics'],
		[`in.hotjar.com/api/v2/client/sites/${4000000 + n}/visit-data`, 1, 1, 'analytics']],
	cookies: (n) => ['_ga', `_ga_H${n}C`, `_hjSessionUser_${4000000 + n}`, `_hjSession_${4000000 + n}`], cookieCategory: 'analytics',
};
