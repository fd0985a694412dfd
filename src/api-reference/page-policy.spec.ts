import { createHash } from 'node:crypto';
import { pagePolicy } from './page-policy';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('pagePolicy', () => {
  const html = [
    '<!DOCTYPE html><html><head><meta charset="utf-8"><style>\n  body { margin: 0 }\n</style></head>',
    '<body><svg style="position:absolute;width:0;height:0"></svg><script src="./a.js"></script>',
    '<style></style></body></html>',
  ].join('');

  it('allows the page its own scripts, styles and images, and its inline styles by hash only', () => {
    expect(pagePolicy(html).split(';')).toEqual([
      "default-src 'none'",
      "script-src 'self'",
      `style-src 'self' ${sha256('\n  body { margin: 0 }\n')} ${sha256('')} 'unsafe-hashes' ${sha256('position:absolute;width:0;height:0')}`,
      "img-src 'self' data:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ]);
  });

  it('allows no inline script, no eval, no connection and no frame', () => {
    const policy = pagePolicy(html);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|connect-src|frame-src|\*/);
  });

  it('has no unsafe-hashes without a style attribute', () => {
    expect(pagePolicy('<style>a{}</style>')).toContain(`style-src 'self' ${sha256('a{}')};`);
  });
});
