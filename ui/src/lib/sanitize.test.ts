// @vitest-environment jsdom
// DOMPurify is tested where it is supported (jsdom, like the app's WebKit); happy-dom's
// DOM breaks it, which sanitize.fallback.test.ts covers.
import { describe, expect, it } from 'vitest';
import katex from 'katex';
import { sanitizeMessage, sanitizeMessageHtml, sanitizerWorks } from './sanitize';
import { KATEX_ATTR } from './sanitize-katex';

/** Every element of a sanitized fragment, for checks over the whole tree. */
function elements(html: string): Element[] {
  const holder = document.createElement('div');
  holder.append(sanitizeMessage(html));
  return [...holder.querySelectorAll('*')];
}

const HOSTILE = [
  '<script>window.pwned = 1</script>',
  '<SCRIPT SRC=//evil.test/x.js></SCRIPT>',
  '<img src=x onerror="window.pwned = 1">',
  '<svg onload="window.pwned = 1"><circle r="1"/></svg>',
  '<p onclick="window.pwned = 1" onmouseover=alert(1)>text</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="  JaVaScRiPt:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<iframe srcdoc="<script>parent.pwned=1</script>"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="https://evil.test"><input name="a"><button>go</button></form>',
  '<style>body { display: none }</style>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<div data-x="1" id="sidebar" aria-hidden="true">attrs</div>',
  '<base href="https://evil.test/"><meta http-equiv="refresh" content="0;url=https://evil.test">',
  '<span class="emoji emoji-1f642" onmouseover="alert(1)">:smile:</span>',
  '<a href="https://ok.test" onclick="alert(1)" target="_top">fine link</a>',
  '<span style="position:fixed;top:0;left:0;width:100%;height:100%">cover</span>',
  '<span style="color:red;background-image:url(https://evil.test/x.png)">track</span>',
  '<span style="height:1em;behavior:url(x.htc)">old IE</span>',
  '<span style="color:expression(alert(1))">old IE</span>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi><maction actiontype="statusline">y</maction></math>',
  '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>',
  '<svg><a href="javascript:alert(1)"><path d="M0 0"/></a><script>alert(1)</script></svg>',
  '<svg><foreignObject><iframe src="https://evil.test"></iframe></foreignObject></svg>',
  '<svg><use href="data:image/svg+xml,<svg id=x onload=alert(1)>#x"/></svg>',
  '<math><annotation encoding="text/html"><b>x</b></annotation></math>',
  '<span class="katex-html" aria-hidden="false">x</span><p aria-hidden="true">hidden</p>',
];

describe('sanitizeMessage', () => {
  it('passes its self-check here', () => {
    expect(sanitizerWorks()).toBe(true);
  });

  it.each(HOSTILE)('leaves nothing executable of %s', (payload) => {
    const all = elements(payload);
    for (const element of all) {
      const tag = element.tagName.toLowerCase();
      expect([
        'script',
        'img',
        'circle',
        'iframe',
        'object',
        'embed',
        'form',
        'input',
        'button',
        'style',
        'mglyph',
        'base',
        'meta',
        'noscript',
      ]).not.toContain(tag);
      for (const attribute of element.attributes) {
        expect(['href', 'title', 'class', 'aria-label', 'role', ...KATEX_ATTR]).toContain(
          attribute.name.toLowerCase(),
        );
        expect(attribute.name).not.toBe('aria-hidden');
        expect(attribute.name).not.toBe('style');
        expect(attribute.name.startsWith('on')).toBe(false);
      }
      const href = element.getAttribute('href');
      if (href !== null) expect(href).toMatch(/^(https?:|mailto:|#)/i);
    }
    expect(sanitizeMessageHtml(payload).toLowerCase()).not.toContain('<script');
  });

  it("keeps KaTeX's math: MathML, its visual copy and layout styles", () => {
    for (const [tex, displayMode] of [
      ['\\Phi_E = \\oint E \\cdot dA', false],
      ['\\sqrt{\\frac{a}{b}} \\xrightarrow{f} \\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}', true],
      ['\\begin{array}{c|c}a&b\\\\\\hline c&d\\end{array} \\cancel{x} \\boxed{y}', true],
      ['\\color{red}{x} \\colorbox{yellow}{y} \\fcolorbox{red}{blue}{z}', false],
      ['\\overbrace{ab}^{n} \\underbrace{cd}_{m} \\widehat{xy} \\binom{n}{k}', true],
    ] as const) {
      const html = katex.renderToString(tex, { displayMode, throwOnError: true });
      const original = document.createElement('div');
      original.innerHTML = html;
      const holder = document.createElement('div');
      holder.append(sanitizeMessage(html));
      // Every element and every attribute survive.
      const before = [...original.querySelectorAll('*')];
      const after = [...holder.querySelectorAll('*')];
      expect(after.map((e) => e.tagName)).toEqual(before.map((e) => e.tagName));
      after.forEach((element, index) => {
        const attributes = (e: Element) =>
          [...e.attributes]
            .map((a) => `${a.name}=${a.value}`)
            .filter((a) => !a.startsWith('xmlns'))
            .sort();
        expect(attributes(element)).toEqual(attributes(before[index] as Element));
      });
      expect(holder.querySelector('.katex-html')?.getAttribute('aria-hidden')).toBe('true');
      expect(holder.querySelector('annotation')?.textContent).toBe(tex);
    }
  });

  it("keeps Zulip's highlighted code and tables", () => {
    const html =
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
      '<span class="k">def</span> <span class="nf">f</span></code></pre></div>' +
      '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>';
    const holder = document.createElement('div');
    holder.append(sanitizeMessage(html));
    expect(holder.querySelector('.codehilite code .k')?.textContent).toBe('def');
    expect(holder.querySelector('.codehilite code .nf')?.textContent).toBe('f');
    expect(holder.querySelector('table tbody td')?.textContent).toBe('1');
  });

  it("keeps a table's column alignment, and no other style on its cells", () => {
    const html =
      '<table><thead><tr><th style="text-align: left;">a</th>' +
      '<th style="text-align: center;">b</th><th style="text-align: right;">c</th></tr>' +
      '</thead><tbody><tr><td style="text-align: right;">1</td>' +
      '<td style="text-align: right; background: url(x)">2</td>' +
      '<td style="position: fixed">3</td></tr></tbody></table>' +
      '<p style="text-align: center;">not a cell</p>';
    const holder = document.createElement('div');
    holder.append(sanitizeMessage(html));
    const styles = [...holder.querySelectorAll('th, td, p')].map((e) => e.getAttribute('style'));
    expect(styles).toEqual([
      'text-align: left;',
      'text-align: center;',
      'text-align: right;',
      'text-align: right;',
      null,
      null,
      null,
    ]);
  });

  it("keeps Zulip's text formatting: bold, links, code, emoji", () => {
    const html =
      '<p>Hello! I am happy to be here! <span aria-label="smile" class="emoji emoji-1f642" ' +
      'role="img" title="smile">:smile:</span><br>\nThe Wikipedia featured article for today ' +
      'is <strong><a href="https://en.wikipedia.org/wiki/Tea">Tea</a></strong></p>' +
      '<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>';
    const holder = document.createElement('div');
    holder.append(sanitizeMessage(html));

    const link = holder.querySelector('strong > a');
    expect(link?.getAttribute('href')).toBe('https://en.wikipedia.org/wiki/Tea');
    expect(link?.textContent).toBe('Tea');
    const emoji = holder.querySelector('span.emoji');
    expect(emoji?.textContent).toBe('🙂');
    expect(emoji?.getAttribute('aria-label')).toBe('smile');
    expect(holder.querySelector('pre code')?.textContent).toBe('x = 1\n');
    expect(holder.querySelector('br')).not.toBeNull();
  });

  it('drops unsafe class names but keeps the rest', () => {
    const html = '<span class="emoji emoji-1f680 x&quot;y">:rocket:</span>';
    const span = elements(html)[0];
    expect(span?.getAttribute('class')).toBe('emoji emoji-1f680');
    expect(span?.textContent).toBe('🚀');
  });

  it('keeps multi-codepoint emoji and ignores malformed codes', () => {
    const flag = elements('<span class="emoji emoji-1f1fa-1f1f8">:us:</span>')[0];
    expect(flag?.textContent).toBe('🇺🇸');
    const bogus = elements('<span class="emoji emoji-ffffff">:bogus:</span>')[0];
    expect(bogus?.textContent).toBe(':bogus:');
  });
});
