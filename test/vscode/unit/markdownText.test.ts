import { strict as assert } from 'node:assert';
import { code, md } from '../../../src/vscode/shared/markdownText';

// The renderer of VS Code's Markdown preview, set up as the preview sets it up (links found in text).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: object) => { render(src: string): string; renderInline(src: string): string };
const renderer = new MarkdownIt({ html: true, linkify: true });
/** The text a reader sees, and the links the renderer made. */
function rendered(markdown: string): { text: string; links: string[] } {
  const html = renderer.renderInline(markdown);
  const links = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
  const text = html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  return { text, links };
}

describe('stored text in Markdown', () => {
  it('reads as written: no backslash shows, for names, addresses and URLs alike', () => {
    for (const text of [
      'svc:billing owned_by bob@example.com',
      'source https://wiki.example.com/team_pages/billing?x=1 (checked)',
      'see (https://wiki.example.com/x), then rerun',
      'a*b*c _d_ [not a link](http://x) <b>bold</b> ~~s~~ $x$ &amp; | pipe # hash',
      '1. not a list',
      '- not a list either',
    ]) {
      assert.equal(rendered(md(text)).text, text, md(text));
    }
  });

  it('never makes a link, neither a whole URL nor a piece of one (the preview linked only https://wiki)', () => {
    assert.deepEqual(rendered(md('source https://wiki.example.com/page and bob@example.com')).links, []);
    assert.match(md('source https://wiki.example.com/page'), /`https:\/\/wiki\.example\.com\/page`/);
  });

  it('keeps a closing bracket or a full stop after a URL out of it', () => {
    assert.equal(md('(https://x.example/a).'), '(`https://x.example/a`).');
  });

  it('shows code as it is in a code span, whatever backticks it holds', () => {
    assert.equal(rendered(code('quasar-cli warm')).text, 'quasar-cli warm');
    assert.equal(rendered(code('a `b` c')).text, 'a `b` c');
  });
});
