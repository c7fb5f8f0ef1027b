// merkle.js: checks an inclusion proof of a receipt (docs/proof.md, RFC
// 9162 2.1.3.2) in the browser with WebCrypto's SHA-256, as
// common/proof/proof.c does: leaf = H(0x00 || digest), node =
// H(0x01 || left || right), over the 32 bytes each hex string stands for.

const HEX = /^[0-9a-f]{64}$/;
const bytes = (h) => Uint8Array.from(h.match(/../g), (x) => parseInt(x, 16));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

async function hash(prefix, ...parts) {
	const buf = new Uint8Array(1 + 32 * parts.length);
	buf[0] = prefix;
	parts.forEach((p, i) => buf.set(p, 1 + 32 * i));
	return new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
}

// Resolves true when digest (hex) is leaf proof.leaf_index of a tree of
// proof.tree_size leaves whose root is proof.root, by proof.path; false
// for anything malformed.
export async function inclusionOk(digest, proof) {
	if (!proof || typeof digest !== 'string' || typeof proof.root !== 'string' || !Array.isArray(proof.path)) return false;
	const d = digest.toLowerCase(), root = proof.root.toLowerCase();
	let fn = proof.leaf_index, sn = proof.tree_size - 1;
	if (!HEX.test(d) || !HEX.test(root) || !Number.isInteger(fn) || !Number.isInteger(sn) || fn < 0 || fn > sn || sn > 2 ** 30) return false;
	let r = await hash(0, bytes(d));
	for (const s of proof.path) {
		const p = typeof s === 'string' ? s.toLowerCase() : '';
		if (sn === 0 || !HEX.test(p)) return false;
		if ((fn & 1) || fn === sn) {
			r = await hash(1, bytes(p), r);
			while (!(fn & 1) && fn !== 0) { fn >>= 1; sn >>= 1; }
		} else {
			r = await hash(1, r, bytes(p));
		}
		fn >>= 1;
		sn >>= 1;
	}
	return sn === 0 && hex(r) === root;
}
