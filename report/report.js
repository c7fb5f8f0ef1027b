// report.js: the page of `consentctl report`: reads the figures (the JSON
// in #report-data, docs/consentctl.md "The report" gives its shape) and shows
// each as a uPlot chart beside a table of the same numbers.  Every text,
// the site's name and the recorded domains included, reaches the page
// through text nodes only: nothing of the data is ever parsed as HTML.
// Numbers, dates and times are formatted for the reader's locale (Intl),
// dates in UTC as the log keeps them.
import uPlot from 'uplot';

const data = JSON.parse(document.getElementById('report-data').textContent);

// ---- formatting ----

const nf = new Intl.NumberFormat();
const pf = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const sf = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'second', unitDisplay: 'narrow', maximumFractionDigits: 1 });
const df = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const sdf = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const mf = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long', timeZone: 'UTC' });
const tf = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const NONE = '–';

const fmt = {
	count: (v) => (v == null ? NONE : nf.format(v)),
	percent: (v) => (v == null ? NONE : pf.format(v / 100)),
	seconds: (ms) => (ms == null ? NONE : sf.format(ms / 1000)),
	day: (s) => df.format(new Date(`${s}T00:00:00Z`)),
	shortDay: (s) => sdf.format(new Date(`${s}T00:00:00Z`)),
	month: (s) => mf.format(new Date(`${s}-01T00:00:00Z`)),
	time: (s) => tf.format(new Date(s)),
};

// ---- the DOM, text only ----

// el('p', {class: 'x'}, 'text', child...): attributes are the page's own
// names and values; children are nodes or strings (text nodes).
function el(tag, attrs, ...children) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) if (v != null) e.setAttribute(k, v);
	for (const c of children) {
		if (c == null) continue;
		e.append(typeof c === 'string' ? document.createTextNode(c) : c);
	}
	return e;
}

// A table in a focusable scrolling region.  columns: [{title, value(row)
// -> string, num}]; rowClass(row) optional.
function table(id, caption, columns, rows, rowClass) {
	const head = el('tr', null, ...columns.map((c) => el('th', { scope: 'col', class: c.num ? 'n' : null }, c.title)));
	const body = rows.map((r) => el('tr', { class: rowClass ? rowClass(r) : null },
		...columns.map((c, i) => (i === 0
			? el('th', { scope: 'row' }, c.value(r))
			: el('td', { class: c.num ? 'n' : c.cls || null }, c.value(r))))));
	const t = el('table', { id }, el('caption', null, caption), el('thead', null, head), el('tbody', null, ...body));
	return el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': caption }, t);
}

// ---- charts ----

const ACTIONS = [
	{ key: 'opt_in', title: 'Opt-in', color: '--c-opt-in' },
	{ key: 'opt_out', title: 'Opt-out', color: '--c-opt-out' },
	{ key: 'partial', title: 'Partial', color: '--c-partial' },
	{ key: 'acknowledge', title: 'Acknowledge', color: '--c-acknowledge' },
];

const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const charts = [];

// The largest value a y axis needs, rounded up to 1, 2 or 5 times a power of ten.
function niceMax(max) {
	if (!(max > 0)) return 1;
	const p = 10 ** Math.floor(Math.log10(max));
	for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
	return 10 * p;
}

// The uPlot options and data of a chart spec: x is the index of a label
// (days, months, groups, buckets); each series a bar, or for `line` a
// dashed line with points (a cap).  percent: the y axis is 0 to 100 %.
function plotOptions(spec, width) {
	const n = spec.labels.length;
	const fg = css('--fg');
	const grid = css('--line');
	const groups = spec.series.filter((s) => !s.line && !s.over).length;
	let slot = 0;
	const series = [{}];
	for (const s of spec.series) {
		const color = css(s.color);
		if (s.line) {
			series.push({ label: s.title, stroke: color, width: 2, dash: [6, 4],
				points: { show: true, size: 10, stroke: color, fill: color } });
			continue;
		}
		// Side by side when there are several, each in its own slot;
		// "over" series (stacked shares) share the whole slot.
		const size = s.over || groups === 1 ? 0.7 : 0.8 / groups;
		const align = s.over || groups === 1 ? 0 : (slot++ === 0 ? -1 : 1);
		series.push({ label: s.title, stroke: color, fill: color, width: 0,
			points: { show: false },
			paths: uPlot.paths.bars({ size: [size, 80], align }) });
	}
	const maxVal = Math.max(0, ...spec.series.flatMap((s) => s.values.filter((v) => v != null)));
	const yMax = spec.percent ? 100 : niceMax(maxVal);
	const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(width / 90))));
	return [{
		width,
		height: 240,
		legend: { show: false },
		cursor: { show: false },
		scales: { x: { time: false, range: [-0.5, n - 0.5] }, y: { range: [0, yMax] } },
		axes: [
			{ stroke: fg, grid: { show: false }, ticks: { stroke: grid },
				splits: () => spec.labels.map((_, i) => i).filter((i) => i % every === 0),
				values: (u, splits) => splits.map((i) => spec.labels[i] ?? '') },
			{ stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 64,
				values: (u, vals) => vals.map((v) => (spec.percent ? fmt.percent(v) : fmt.count(v))) },
		],
		series,
	}, [spec.labels.map((_, i) => i), ...spec.series.map((s) => s.values)]];
}

// A figure for a chart spec {id, title, labels, series: [{title, color,
// values, line?, over?}], percent?}: a role=img box uPlot draws into
// (named by the title, the table beside holds its numbers) and a legend.
function chart(spec) {
	const box = el('div', { class: 'chart', role: 'img', 'aria-label': `Chart: ${spec.title}. The table beside it holds the same numbers.` });
	// Stacked shares list their actions bottom up, as the table does.
	const listed = spec.series.some((s) => s.over) ? [...spec.series].reverse() : spec.series;
	const legend = el('ul', { class: 'legend', 'aria-hidden': 'true' }, ...listed.map((s) => {
		const sw = el('span');
		sw.dataset.color = s.color;
		return el('li', null, sw, s.title);
	}));
	const fig = el('figure', { id: spec.id, class: 'figure' }, box, legend, el('figcaption', null, spec.title));
	charts.push({ spec, box, legend, plot: null });
	return fig;
}

// (Re)draw every chart at its box's width with the colours now in force.
function drawAll(fixedWidth) {
	for (const c of charts) {
		if (c.plot) c.plot.destroy();
		const width = fixedWidth || Math.max(240, Math.floor(c.box.getBoundingClientRect().width));
		const [opts, d] = plotOptions(c.spec, width);
		c.plot = new uPlot(opts, d, c.box);
		for (const sw of c.legend.querySelectorAll('span')) sw.style.background = css(sw.dataset.color);
		// What each series should show (its colour, and whether any of its
		// own values is above 0), for a reader of the page's DOM: the test
		// looks for those colours in the canvas.
		c.box.parentElement.dataset.series = JSON.stringify(c.spec.series.map((s) => ({ title: s.title,
			color: css(s.color), values: (s.own || s.values).some((v) => v > 0) })));
	}
}

// Shares stacked in one bar, opt-in at the bottom: the series of an
// action is its share plus the shares of the actions below it, and the
// tallest is drawn first, so each colour shows its own part.
function stacked(rows, decisions) {
	return ACTIONS.map((a, i) => {
		const keys = ACTIONS.slice(0, i + 1).map((b) => b.key);
		return { title: a.title, color: a.color, over: true, own: rows.map((r) => r[`${a.key}_percent`]),
			values: rows.map((r) => (decisions(r) > 0 ? keys.reduce((sum, k) => sum + (r[`${k}_percent`] ?? 0), 0) : null)) };
	}).reverse();
}

// ---- sections ----

function section(id, title, ...children) {
	return el('section', { id, 'aria-labelledby': `${id}-h` }, el('h2', { id: `${id}-h` }, title), ...children);
}

const pair = (...children) => el('div', { class: 'pair' }, ...children);
const actionColumns = ACTIONS.map((a) => ({ title: a.title, num: true, value: (r) => fmt.percent(r[`${a.key}_percent`]) }));

function summary() {
	const t = data.totals;
	const tiles = [
		['Entries', fmt.count(t.entries)],
		['Banner impressions', fmt.count(t.impressions)],
		['Decisions', fmt.count(t.decisions)],
		['Visitors', fmt.count(t.visitors)],
		...ACTIONS.map((a) => [`${a.title} share`, fmt.percent(t[`${a.key}_percent`])]),
		['Median time to action', fmt.seconds(data.time_to_action.median_ms)],
		['GPC share', data.gpc.percent == null ? 'not recorded' : fmt.percent(data.gpc.percent)],
	];
	const dl = el('dl', { class: 'tiles', id: 'tiles' }, ...tiles.map(([k, v]) => el('div', null, el('dt', null, k), el('dd', null, v))));
	const total = table('t-actions', 'Decisions in total, by action', [
		{ title: 'Action', value: (r) => r.title },
		{ title: 'Decisions', num: true, value: (r) => fmt.count(t[r.key]) },
		{ title: 'Share', num: true, value: (r) => fmt.percent(t[`${r.key}_percent`]) },
	], ACTIONS);
	return section('summary', 'At a glance', dl, total);
}

function daily() {
	const rows = data.daily;
	const labels = rows.map((r) => fmt.shortDay(r.day));
	const counts = chart({ id: 'c-daily', title: 'Banner impressions and decisions per day', labels, series: [
		{ title: 'Impressions', color: '--c-impressions', values: rows.map((r) => r.impressions) },
		{ title: 'Decisions', color: '--c-decisions', values: rows.map((r) => r.decisions) },
	] });
	const shares = chart({ id: 'c-daily-shares', title: 'Share of each action among the decisions, per day', labels, percent: true,
		series: stacked(rows, (r) => r.decisions) });
	const t = table('t-daily', 'Per day (UTC)', [
		{ title: 'Day', value: (r) => fmt.day(r.day) },
		{ title: 'Impressions', num: true, value: (r) => fmt.count(r.impressions) },
		{ title: 'Decisions', num: true, value: (r) => fmt.count(r.decisions) },
		...actionColumns,
	], rows);
	return section('daily', 'Per day', pair(counts, shares), t);
}

const NOT_SENT = 'not sent';

function split(id, member, title, what) {
	const rows = data[member];
	const name = (r) => (r.key == null ? NOT_SENT : r.key);
	const c = chart({ id: `c-${id}`, title: `Share of each action by ${what}`, labels: rows.map(name), percent: true,
		series: stacked(rows, (r) => r.decisions) });
	const t = table(`t-${id}`, `Decisions by ${what}`, [
		{ title: title, value: name },
		{ title: 'Decisions', num: true, value: (r) => fmt.count(r.decisions) },
		...actionColumns,
	], rows);
	return section(id, `By ${what}`, pair(c, t));
}

function categories() {
	const rows = data.categories;
	const c = chart({ id: 'c-categories', title: 'Share of visitors who allowed each category', labels: rows.map((r) => r.category), percent: true,
		series: [{ title: 'Allowed', color: '--c-opt-in', values: rows.map((r) => r.percent) }] });
	const t = table('t-categories', 'Visitors by category, as their last decision of the period left it', [
		{ title: 'Category', value: (r) => r.category },
		{ title: 'Visitors', num: true, value: (r) => fmt.count(r.visitors) },
		{ title: 'Allowed', num: true, value: (r) => fmt.count(r.allowed) },
		{ title: 'Share', num: true, value: (r) => fmt.percent(r.percent) },
	], rows);
	return section('categories', 'Categories allowed', pair(c, t));
}

function bucketName(b) {
	if (b.from_ms === 0) return `< ${fmt.seconds(b.to_ms)}`;
	if (b.to_ms == null) return `≥ ${fmt.seconds(b.from_ms)}`;
	return `${nf.format(b.from_ms / 1000)}–${fmt.seconds(b.to_ms)}`;
}

function timeToAction() {
	const tta = data.time_to_action;
	const c = chart({ id: 'c-tta', title: 'Decisions by time from the banner to the action', labels: tta.buckets.map(bucketName),
		series: [{ title: 'Decisions', color: '--c-decisions', values: tta.buckets.map((b) => b.count) }] });
	const t = table('t-tta', 'Time to action', [
		{ title: 'Time', value: bucketName },
		{ title: 'Decisions', num: true, value: (b) => fmt.count(b.count) },
		{ title: 'Share', num: true, value: (b) => fmt.percent(b.percent) },
	], tta.buckets);
	const note = el('p', { class: 'note', id: 'tta-median' },
		`Median ${fmt.seconds(tta.median_ms)} over ${fmt.count(tta.count)} decisions that reported it.`);
	return section('tta', 'Time to action', note, pair(c, t));
}

function mau() {
	const m = data.mau;
	const series = [{ title: 'Visitors', color: '--c-value', values: m.months.map((r) => r.visitors) }];
	if (m.cap != null) series.push({ title: 'Cap', color: '--c-cap', line: true, values: m.months.map(() => m.cap) });
	const c = chart({ id: 'c-mau', title: m.cap != null ? 'Monthly active visitors against the free cap' : 'Monthly active visitors',
		labels: m.months.map((r) => fmt.month(r.month)), series });
	const t = table('t-mau', 'Monthly active visitors (whole calendar months, UTC)', [
		{ title: 'Month', value: (r) => fmt.month(r.month) },
		{ title: 'Visitors', num: true, value: (r) => fmt.count(r.visitors) },
		{ title: 'Cap', num: true, value: () => (m.cap == null ? 'none' : fmt.count(m.cap)) },
		{ title: 'Share of cap', num: true, value: (r) => fmt.percent(r.percent_of_cap) },
	], m.months);
	const note = el('p', { class: 'note' }, m.cap != null
		? `A free site whose visitors of a month reach the cap (${fmt.count(m.cap)}) shows no banner for the rest of that month.`
		: 'A paid site has no cap.');
	return section('mau', 'Monthly active visitors', note, pair(c, t));
}

function gpc() {
	const g = data.gpc;
	const rows = [
		{ title: 'Sent', n: g.sent },
		{ title: 'Not sent', n: g.not_sent },
		{ title: 'Not recorded (entries stored before the log kept it)', n: g.not_recorded },
	];
	const note = el('p', { class: 'note', id: 'gpc-share' }, g.percent == null
		? 'No entry of the period recorded whether the browser sent Global Privacy Control.'
		: `${fmt.percent(g.percent)} of the entries that recorded it came with Global Privacy Control.`);
	return section('gpc', 'Global Privacy Control', note, table('t-gpc', 'Entries by GPC signal', [
		{ title: 'Signal', value: (r) => r.title },
		{ title: 'Entries', num: true, value: (r) => fmt.count(r.n) },
	], rows));
}

function scripts() {
	const rows = data.scripts;
	const open = rows.filter((r) => r.rule == null).length;
	const note = el('p', { class: 'note', id: 'scripts-note' }, rows.length === 0
		? 'No script was reported in the period.'
		: `${fmt.count(rows.length)} script domains were seen in the period; ${fmt.count(open)} of them are not covered by a blocking rule of the config (marked).`);
	const t = table('t-scripts', 'Script inventory', [
		{ title: 'Domain', value: (r) => r.domain },
		{ title: 'Category', value: (r) => r.category ?? NONE },
		{ title: 'Blocked', value: (r) => (r.blocked ? 'yes' : 'no') },
		{ title: 'Blocking rule', value: (r) => (r.rule == null ? el('span', { class: 'badge' }, 'no rule') : r.rule) },
		{ title: 'First seen', value: (r) => fmt.time(r.first_seen) },
		{ title: 'Last seen', value: (r) => fmt.time(r.last_seen) },
		{ title: 'Reports', num: true, value: (r) => fmt.count(r.seen_count) },
		{ title: 'Last page', cls: 'url', value: (r) => r.last_page_url },
	], rows, (r) => (r.rule == null ? 'uncovered' : null));
	return section('scripts', 'Scripts on the pages', note, t);
}

// ---- the page ----

function render() {
	const main = document.getElementById('report');
	const p = data.period;
	document.title = `Consent report: ${data.site.name}`;
	document.getElementById('title').textContent = `Consent report: ${data.site.name}`;
	main.append(
		el('p', { class: 'meta', id: 'period' },
			`Site ${data.site.key} (${data.site.tier}), ${fmt.day(p.since)} to ${fmt.day(p.until)} (UTC), ${fmt.count(p.days)} days. Made ${fmt.time(data.generated_at)} UTC.`),
		summary(),
		daily(),
		split('region', 'by_region', 'Region', 'region'),
		split('device', 'by_device', 'Device', 'device type'),
		split('browser', 'by_browser', 'Browser', 'browser'),
		split('position', 'by_position', 'Position', 'banner position'),
		categories(),
		timeToAction(),
		mau(),
		gpc(),
		scripts(),
	);
	drawAll();
	document.documentElement.dataset.ready = 'true';
}

let resizing;
window.addEventListener('resize', () => { clearTimeout(resizing); resizing = setTimeout(() => drawAll(), 150); });
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => drawAll());
window.addEventListener('beforeprint', () => { document.documentElement.classList.add('printing'); drawAll(640); });
window.addEventListener('afterprint', () => { document.documentElement.classList.remove('printing'); drawAll(); });

render();
