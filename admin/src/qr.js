// qr.js: a QR code of a text (the otpauth URI) as SVG squares drawn by
// Preact, from qrcode-generator's module matrix (no markup string).
import qrcode from 'qrcode-generator';
import { html } from './ui.js';

export function Qr({ text, label }) {
	const q = qrcode(0, 'M');
	q.addData(text);
	q.make();
	const n = q.getModuleCount();
	let d = '';
	for (let r = 0; r < n; r++) {
		for (let c = 0; c < n; c++) if (q.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
	}
	const size = n + 8;
	return html`<svg class="qr" role="img" aria-label=${label} viewBox=${`0 0 ${size} ${size}`}
		width=${size * 5} height=${size * 5} shape-rendering="crispEdges">
		<rect width=${size} height=${size} fill="#fff" />
		<path d=${d} fill="#000" />
	</svg>`;
}
