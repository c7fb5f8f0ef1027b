// merkle.test.mjs: admin/src/merkle.js's check of an inclusion proof
// against proofs made here independently (RFC 9162 2.1.1 and 2.1.3.1 over
// node:crypto): every leaf of trees of 1 to 13 leaves verifies; a changed
// digest, path node, index or root, a path one too short or too
// long, and malformed members do not.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { inclusionOk } from '../../../admin/src/merkle.js';

const H = (...parts) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = (d) => H(Buffer.from([0]), Buffer.from(d, 'hex'));
const split = (n) => { let k = 1; while (k * 2 < n) k *= 2; return k; };
function mth(ls) {
	if (ls.length === 1) return ls[0];
	const k = split(ls.length);
	return H(Buffer.from([1]), mth(ls.slice(0, k)), mth(ls.slice(k)));
}
function pathOf(m, ls) {
	if (ls.length === 1) return [];
	const k = split(ls.length);
	return m < k ? [...pathOf(m, ls.slice(0, k)), mth(ls.slice(k))] : [...pathOf(m - k, ls.slice(k)), mth(ls.slice(0, k))];
}
const digests = (n) => Array.from({ length: n }, (_, i) => createHash('sha256').update(`entry ${i}`).digest('hex'));
const proofOf = (ds, m) => {
	const ls = ds.map(leaf);
	return { leaf_index: m, tree_size: ds.length, root: mth(ls).toString('hex'), path: pathOf(m, ls).map((b) => b.toString('hex')) };
};
const flip = (h) => (h[0] === '0' ? '1' : '0') + h.slice(1);

test('every leaf of trees of 1 to 13 leaves verifies', async () => {
	for (let n = 1; n <= 13; n++) {
		const ds = digests(n);
		for (let m = 0; m < n; m++) assert.equal(await inclusionOk(ds[m], proofOf(ds, m)), true, `leaf ${m} of ${n}`);
	}
});

test('a changed digest, path node, index or root, or a path of another length, does not verify', async () => {
	const ds = digests(11);
	for (let m = 0; m < 11; m++) {
		const p = proofOf(ds, m);
		assert.equal(await inclusionOk(flip(ds[m]), p), false);
		assert.equal(await inclusionOk(ds[m], { ...p, root: flip(p.root) }), false);
		for (let i = 0; i < p.path.length; i++) {
			const path = p.path.slice();
			path[i] = flip(path[i]);
			assert.equal(await inclusionOk(ds[m], { ...p, path }), false, `node ${i} of leaf ${m}`);
		}
		assert.equal(await inclusionOk(ds[m], { ...p, leaf_index: (m + 1) % 11 }), false);
		assert.equal(await inclusionOk(ds[m], { ...p, path: p.path.slice(1) }), false);
		assert.equal(await inclusionOk(ds[m], { ...p, path: [...p.path, p.root] }), false);
	}
});

test('malformed proofs are refused', async () => {
	const ds = digests(4);
	const p = proofOf(ds, 2);
	for (const bad of [null, {}, { ...p, path: 'x' }, { ...p, leaf_index: -1 }, { ...p, leaf_index: 4 }, { ...p, leaf_index: 1.5 },
		{ ...p, root: 'zz' }, { ...p, path: [p.path[0], 'not hex'] }, { ...p, tree_size: 0 }]) {
		assert.equal(await inclusionOk(ds[2], bad), false, JSON.stringify(bad));
	}
	assert.equal(await inclusionOk('abc', p), false);
	assert.equal(await inclusionOk(ds[2].toUpperCase(), { ...p, root: p.root.toUpperCase() }), true, 'hex in either case');
});
