// stats.js: a site's statistics (GET sites/KEY/report: the figures of
// `consentctl report --json`) for a period chosen here, each figure a
// uPlot chart as the report page draws it with a table of the same numbers
// beside it: decisions apart from banners shown without one, then per
// region, device, language (when reported), browser, position, category
// and GPC.  uPlot is its own file (uplot.js), loaded when this view
// opens; it styles its elements through the CSSOM, which the page's CSP
// (style-src 'self') allows.  Labels come from the log: text only.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, path, problem } from './api.js';
import { html, Field, Note, Title, useForm } from './ui.js';
import { SiteNav, query, useSite } from './sitenav.js';

let loading = null;
// Resolves to uPlot once its file ran (once per page).
const uPlotLib = () => loading || (loading = new Promise((resolve, reject) => {
	const s = document.createElement('script');
	s.src = 'uplot.js';
	s.onload = () => resolve(window.uPlot);
	s.onerror = () => { loading = null; reject(new Error('uplot.js did not load')); };
	document.head.append(s);
}));

const nf = new Intl.NumberFormat('en-US');
const count = (v) => (v == null ? '–' : nf.format(v));
const pct = (v) => (v == null ? '–' : `${v} %`);
const ACTIONS = [['opt_in', 'Opt-in', '--c-opt-in'], ['opt_out', 'Opt-out', '--c-opt-out'],
	['partial', 'Partial', '--c-partial'], ['acknowledge', 'Acknowledge', '--c-acknowledge']];
const SPLITS = [['by_region', 'region'], ['by_device', 'device type'], ['by_language', 'language'],
	['by_browser', 'browser'], ['by_position', 'banner position']];
const day = (d) => new Date(Date.now() - d * 864e5).toISOString().slice(0, 10);

export function Stats({ site }) {
	const { role, err: serr } = useSite(site);
	const [f, set] = useForm({ from: day(29), to: day(0) });
	const [period, setPeriod] = useState(f);
	const [rep, setRep] = useState(null);
	const [err, setErr] = useState('');
	useEffect(() => {
		(async () => {
			const r = await get(path('sites', site, 'report') + query(period));
			setErr(problem(r));
			setRep(r.status === 200 ? r.body : null);
		})();
	}, [period]);
	return html`<${Title}>Statistics<//>
		<${SiteNav} site=${site} role=${role} at="stats" />
		<form class="filters" aria-label="Period" onSubmit=${(e) => { e.preventDefault(); setPeriod({ ...f }); }}>
			<${Field} label="From (UTC)" type="date" value=${f.from} onInput=${set('from')} />
			<${Field} label="Until (UTC)" type="date" value=${f.to} onInput=${set('to')} />
			<button class="primary">Show</button>
		</form>
		<${Note} error=${serr || err} />
		${rep && html`<${Figures} r=${rep} />`}`;
}

// The figures of a report, section by section.
function Figures({ r }) {
	const t = r.totals || {};
	const daily = r.daily || [];
	const shareCols = ACTIONS.map(([k, title]) => [title, (x) => pct(x[k + '_percent'])]);
	const splitRows = (rows) => rows.map((x) => ({ ...x, label: x.key == null ? 'not sent' : String(x.key) }));
	return html`<p data-testid="period">${r.period ? `${r.period.since} to ${r.period.until} (UTC), ${r.period.days} days.` : ''}</p>
		<${Figure} id="totals" title="Banners shown and decisions, apart"
			labels=${['Impressions', 'Decisions', ...ACTIONS.map((a) => a[1])]}
			series=${[['Entries', '--c-decisions', [t.impressions, t.decisions, ...ACTIONS.map(([k]) => t[k])]]]}
			cols=${[['What', (x) => x[0]], ['Count', (x) => count(x[1])], ['Share of decisions', (x) => x[2]]]}
			rows=${[['Banner impressions', t.impressions, ''], ['Decisions', t.decisions, ''],
				...ACTIONS.map(([k, title]) => [title, t[k], pct(t[k + '_percent'])]), ['Visitors', t.visitors, '']]} />
		${r.outcomes && html`<${Outcomes} o=${r.outcomes} />`}
		<${Figure} id="daily" title="Banners shown and decisions per day" labels=${daily.map((x) => x.day.slice(5))}
			series=${[['Impressions', '--c-impressions', daily.map((x) => x.impressions)], ['Decisions', '--c-decisions', daily.map((x) => x.decisions)]]}
			cols=${[['Day', (x) => x.day], ['Impressions', (x) => count(x.impressions)], ['Decisions', (x) => count(x.decisions)], ...shareCols]}
			rows=${daily} />
		${SPLITS.filter(([k]) => Array.isArray(r[k])).map(([k, what]) => html`<${Figure} id=${k} title=${'Decisions by ' + what}
			labels=${splitRows(r[k]).map((x) => x.label)} percent stacked
			series=${ACTIONS.map(([a, title, c]) => [title, c, r[k].map((x) => x[a + '_percent'])])}
			cols=${[[what[0].toUpperCase() + what.slice(1), (x) => x.label],
				...(k === 'by_language' ? [['Impressions', (x) => count(x.impressions)]] : []), ['Decisions', (x) => count(x.decisions)], ...shareCols]}
			rows=${splitRows(r[k])} />`)}
		${Array.isArray(r.categories) && html`<${Figure} id="categories" title="Visitors who allowed each category" percent
			labels=${r.categories.map((x) => x.category)} series=${[['Allowed', '--c-opt-in', r.categories.map((x) => x.percent)]]}
			cols=${[['Category', (x) => x.category], ['Visitors', (x) => count(x.visitors)], ['Allowed', (x) => count(x.allowed)], ['Share', (x) => pct(x.percent)]]}
			rows=${r.categories} />`}
		${r.gpc && html`<${Figure} id="gpc" title="Entries by Global Privacy Control signal"
			labels=${['Sent', 'Not sent', 'Not recorded']} series=${[['Entries', '--c-value', [r.gpc.sent, r.gpc.not_sent, r.gpc.not_recorded]]]}
			cols=${[['Signal', (x) => x[0]], ['Entries', (x) => x[1]]]}
			rows=${[['Sent', count(r.gpc.sent)], ['Not sent', count(r.gpc.not_sent)], ['Not recorded', count(r.gpc.not_recorded)],
				['Share sent', pct(r.gpc.percent)]]} />`}`;
}

// What became of the visitors: each action of their last decision, and no
// decision (shown the banner, never decided), as shares of those asked;
// the returning ones (decided before) apart.
function Outcomes({ o }) {
	const rows = [...ACTIONS.map(([k, title]) => [title, o[k], o[k + '_percent']]), ['No decision', o.no_decision, o.no_decision_percent]];
	return html`<${Figure} id="outcomes" title="Visitors: decisions apart from no decision" percent
		labels=${rows.map((x) => x[0])} series=${[['Share of visitors asked', '--c-decisions', rows.map((x) => x[2])]]}
		cols=${[['Outcome', (x) => x[0]], ['Visitors', (x) => count(x[1])], ['Share of those asked', (x) => pct(x[2])]]}
		rows=${[...rows, ['Decided', o.decided, o.decided_percent], ['Asked', o.asked, null], ['Returning, decided before', o.returning, null]]} />`;
}

// A chart (labels on x; series [title, colour variable, values]: bars side
// by side, or stacked shares, the first at the bottom) and the table
// beside it (cols [title, value(row) -> text] over rows).
function Figure({ id, title, labels, series, percent, stacked, cols, rows }) {
	const box = useRef(null);
	const [failed, setFailed] = useState('');
	useEffect(() => {
		let plot = null, gone = false;
		uPlotLib().then((U) => {
			if (gone || !box.current) return;
			const css = (v) => getComputedStyle(document.documentElement).getPropertyValue(v).trim();
			const n = labels.length, fg = css('--fg'), line = css('--line');
			// Stacked: each series is its share plus those below it, drawn
			// tallest first, so each colour shows its own part.
			const drawn = stacked ? series.map(([l, c], i) => [l, c, labels.map((_, j) =>
				(series[0][2][j] == null ? null : series.slice(0, i + 1).reduce((a, s) => a + (s[2][j] ?? 0), 0)))]).reverse() : series;
			const max = Math.max(1, ...drawn.flatMap((s) => s[2].filter((v) => v != null)));
			const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(box.current.clientWidth / 60))));
			plot = new U({
				width: Math.max(240, Math.floor(box.current.getBoundingClientRect().width)), height: 220,
				legend: { show: false }, cursor: { show: false },
				scales: { x: { time: false, range: [-0.5, n - 0.5] }, y: { range: [0, percent ? 100 : max * 1.1] } },
				axes: [{ stroke: fg, grid: { show: false }, ticks: { stroke: line }, splits: () => labels.map((_, i) => i).filter((i) => i % every === 0),
					values: (u, s) => s.map((i) => labels[i] ?? '') },
				{ stroke: fg, grid: { stroke: line, width: 1 }, ticks: { stroke: line }, size: 56 }],
				series: [{}, ...drawn.map(([label, c], i) => ({ label, stroke: css(c), fill: css(c), width: 0, points: { show: false },
					paths: U.paths.bars(stacked || drawn.length === 1 ? { size: [0.7, 80] } : { size: [0.8 / drawn.length, 60], align: i ? 1 : -1 }) }))],
			}, [labels.map((_, i) => i), ...drawn.map((s) => s[2])], box.current);
		}, (e) => setFailed(e.message));
		return () => { gone = true; plot && plot.destroy(); };
	}, [labels.join('\n'), JSON.stringify(series)]);
	return html`<section class="figure-pair" aria-labelledby=${id + '-h'}>
		<h2 id=${id + '-h'}>${title}</h2>
		<div class="pair">
			<figure><div class="chart" ref=${box} role="img" aria-label=${'Chart: ' + title + '. The table beside it holds the same numbers.'}></div>
				<figcaption>${series.map(([l, c]) => html`<span class="key"><span class=${'sw ' + c.slice(2)} aria-hidden="true"></span>${l}</span>`)}</figcaption>${failed && html`<p class="field-error">${failed}</p>`}</figure>
			<div class="scroll" tabindex="0" role="region" aria-label=${title}><table class="list" data-testid=${'t-' + id}>
				<caption class="sr">${title}</caption>
				<thead><tr>${cols.map(([c]) => html`<th scope="col">${c}</th>`)}</tr></thead>
				<tbody>${rows.map((x) => html`<tr>${cols.map(([, v], i) => (i === 0 ? html`<th scope="row">${v(x)}</th>` : html`<td class="n">${v(x)}</td>`))}</tr>`)}</tbody>
			</table></div>
		</div>
	</section>`;
}
