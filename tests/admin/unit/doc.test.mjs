// doc.test.mjs: admin/src/doc.js, the editor's pure handling of the config
// document (t0625): the API's error paths in every spelling, setting and
// removing at a path without touching the original, the nearest field of
// an error, the texts a new language and a new draft start from.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as D from '../../../admin/src/doc.js';

test('normPath: brackets, JSON pointers and $ prefixes become dotted paths', () => {
	assert.equal(D.normPath('categories[1].id'), 'categories.1.id');
	assert.equal(D.normPath('/categories/1/id'), 'categories.1.id');
	assert.equal(D.normPath('$.content.translations["de"].banner.title'), 'content.translations.de.banner.title');
	assert.equal(D.normPath('/a~1b/c~0d'), 'a/b.c~d');
	assert.equal(D.normPath(undefined), '');
});

test('setAt: a copy with the value set, objects and arrays made on the way; undefined removes', () => {
	const doc = { a: { b: 1 }, list: [1, 2, 3] };
	const x = D.setAt(doc, 'a.c.d', 'v');
	assert.deepEqual(x.a, { b: 1, c: { d: 'v' } });
	assert.deepEqual(doc, { a: { b: 1 }, list: [1, 2, 3] }, 'the original is untouched');
	assert.deepEqual(D.setAt(doc, 'list.1', undefined).list, [1, 3], 'an array member is spliced out');
	assert.deepEqual(D.setAt(doc, 'a.b', undefined).a, {});
	assert.deepEqual(D.setAt({}, 'r.0.id', 'x'), { r: [{ id: 'x' }] }, 'an index makes an array');
	assert.equal(D.getAt(x, 'a.c.d'), 'v');
	assert.equal(D.getAt(x, 'a.nope.d'), undefined);
});

test('nearest: the field itself, else its longest ancestor shown, else none', () => {
	const shown = ['categories.1.id', 'categories.1', 'content.translations', 'appearance.theme'];
	assert.equal(D.nearest(shown, 'categories.1.id'), 'categories.1.id');
	assert.equal(D.nearest(shown, 'categories.1.name'), 'categories.1');
	assert.equal(D.nearest(shown, 'content.translations.xx-bad.banner'), 'content.translations');
	assert.equal(D.nearest(shown, 'appearance.themes'), '', 'a prefix of a name is not an ancestor');
	assert.equal(D.nearest(shown, 'regions.0'), '');
});

test('leaves: every string of a texts object with its path', () => {
	assert.deepEqual(D.leaves({ banner: { title: 'T', n: 3 }, ui: { on: 'On' } }),
		[['banner.title', 'T'], ['ui.on', 'On']]);
});

test('startTexts and startDraft: built-in texts first, the default language\'s else; a draft from the live document or the built-in one with one language', () => {
	const builtin = { content: { defaultLanguage: 'en', translations: { en: { t: 'E' }, de: { t: 'D' } } } };
	const draft = D.startDraft(null, builtin);
	assert.deepEqual(draft.content.translations, { en: { t: 'E' } }, 'the built-in default language alone');
	assert.deepEqual(D.startTexts(builtin, draft, 'de'), { t: 'D' });
	assert.deepEqual(D.startTexts(builtin, draft, 'xx'), { t: 'E' }, 'an unknown language starts from the default\'s');
	const live = { content: { defaultLanguage: 'fr', translations: { fr: { t: 'F' } } } };
	assert.deepEqual(D.startDraft(live, builtin), live);
	assert.notEqual(D.startDraft(live, builtin), live, 'a copy');
});
