// Unit tests of the document.write rewriting (sdk/write.js, SDK.md 5), no
// browser: which start tags are rebuilt, and that the rest is unchanged.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rewrite, isJs, WRITTEN_TYPE, HELD_MARK } from '../../sdk/write.js';

// The verdict hold.js gives, for two rules' hosts.
const held = (url) => /(^|\.)(google-analytics\.com|facebook\.(com|net))$/.test(new URL(url, 'https://site.test/').hostname);

test('rewrite: nothing to hold gives the very same string', () => {
  for (const html of ['', 'plain text', '<p class="x">hi</p><script src="https://cdn.test/a.js"></script>',
    '<script>var a = "<b>";</script>', '<img src=/local.gif alt="">', '<script src="https://x.google-analytics.com.evil.test/a.js">']) {
    assert.equal(rewrite(html, () => false), html);
    assert.equal(rewrite(html, held), html, html);
  }
});

test('rewrite: a held script keeps its attributes and gets a type no browser runs, with its own kept', () => {
  assert.equal(rewrite("<script src='http://www.google-analytics.com/ga.js' type='text/javascript'></script>", held),
    `<script src='http://www.google-analytics.com/ga.js' type="${WRITTEN_TYPE}text/javascript"></script>`);
  assert.equal(rewrite('<p>a</p><SCRIPT async SRC=https://connect.facebook.net/x.js></SCRIPT><p>b</p>', held),
    `<p>a</p><script async SRC=https://connect.facebook.net/x.js type="${WRITTEN_TYPE}"></SCRIPT><p>b</p>`);
  assert.equal(rewrite('<script type="module" src="https://connect.facebook.net/m.js"></script>', held),
    `<script src="https://connect.facebook.net/m.js" type="${WRITTEN_TYPE}module"></script>`);
  assert.equal(rewrite('<script type="text/plain" src="https://connect.facebook.net/x.js"></script>', held),
    '<script type="text/plain" src="https://connect.facebook.net/x.js"></script>', 'not JavaScript: left alone');
});

test('rewrite: held iframes and images keep their src aside, marked', () => {
  assert.equal(rewrite('<img src="https://www.facebook.com/tr?id=1&amp;ev=PageView" height="1"><br>', held),
    `<img height="1" ${HELD_MARK} data-src="https://www.facebook.com/tr?id=1&amp;ev=PageView"><br>`);
  assert.equal(rewrite("<iframe src='https://www.facebook.com/plugin' width=300></iframe>", held),
    `<iframe width=300 ${HELD_MARK} data-src='https://www.facebook.com/plugin'></iframe>`);
});

test('rewrite: comments, raw text and other elements are left alone', () => {
  for (const html of ['<!-- <script src="https://connect.facebook.net/x.js"></script> -->',
    '<script>document.write("<img src=https://www.facebook.com/tr>")</script>',
    '<textarea><script src="https://connect.facebook.net/x.js"></script></textarea>',
    '<style>/* <img src="https://www.facebook.com/tr"> */</style>',
    '<!-- unterminated <script src="https://connect.facebook.net/x.js">',
    '<script-loader src="https://connect.facebook.net/x.js"></script-loader><imgx src="https://www.facebook.com/tr">']) {
    assert.equal(rewrite(html, held), html, html);
  }
  const after = '<title>t</title><script src="https://connect.facebook.net/x.js"></script>';
  assert.match(rewrite(after, held), new RegExp(`type="${WRITTEN_TYPE}"`), 'a tag after a raw-text element is seen');
});

test('isJs: the types a browser runs', () => {
  for (const t of [null, '', 'text/javascript', 'application/javascript', 'TEXT/ECMASCRIPT', ' module ']) assert.ok(isJs(t), t);
  for (const t of ['text/plain', 'javascript/blocked', WRITTEN_TYPE, 'application/json']) assert.ok(!isJs(t), t);
});
