import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { type TestApp, createTestApp } from './support/test-app';

const API_POLICY = "default-src 'none';frame-ancestors 'none'";
const UUID = /^[0-9a-f-]{36}$/;
/** What the page loads from the service, besides itself. */
const PAGE_ASSETS = [
  ['/docs/swagger-ui.css', /^text\/css/],
  ['/docs/swagger-ui-bundle.js', /javascript/],
  ['/docs/swagger-ui-standalone-preset.js', /javascript/],
  ['/docs/swagger-ui-init.js', /javascript/],
  ['/docs/favicon-32x32.png', /^image\/png/],
  ['/docs/favicon-16x16.png', /^image\/png/],
] as const;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const directives = (res: Response) =>
  new Map(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values] as const;
      }),
  );

describe('the API reference at /docs, and / naming it', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('GET /', () => {
    it('answers 404 ROUTE_NOT_FOUND naming /docs and /openapi.json, in the message and the Link header', async () => {
      const res = await t.http().get('/').expect(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({
        error: {
          code: 'ROUTE_NOT_FOUND',
          message: expect.stringMatching(/^The requested route was not found\. .*\/docs.*\/openapi\.json/),
          request_id: res.headers['x-request-id'],
        },
      });
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.headers.link).toBe(
        '</docs>; rel="service-doc"; type="text/html", </openapi.json>; rel="service-desc"; type="application/json"',
      );
      // Every other unknown route's headers, and the Link only.
      const other = await t.http().get('/nope').expect(404);
      const names = (r: Response) => Object.keys(r.headers).filter((name) => name !== 'content-length');
      expect(names(res).sort()).toEqual([...names(other), 'link'].sort());
      for (const name of names(other)) {
        if (!['x-request-id', 'date'].includes(name)) expect(res.headers[name]).toBe(other.headers[name]);
      }
      for (const href of ['/docs', '/openapi.json']) await t.http().get(href).expect(200);
    });

    it('answers HEAD 404 with the Link and no body, and any other method 404 saying only GET and HEAD exist', async () => {
      const head = await t.http().head('/').expect(404);
      expect(head.text).toBeUndefined();
      expect(head.headers.link).toContain('rel="service-doc"');
      const post = await t.http().post('/').expect(404);
      expect(post.body.error).toEqual({
        code: 'ROUTE_NOT_FOUND',
        message:
          'The requested route was not found. The API is read-only: every route answers GET and HEAD only.',
        request_id: post.headers['x-request-id'],
      });
      expect(post.headers.link).toBeUndefined();
    });
  });

  describe('GET /docs', () => {
    let page: Response;
    beforeAll(async () => {
      page = await t.http().get('/docs').expect(200);
    });

    it('is an HTML page in UTF-8, public, with X-Request-Id and the API security headers', () => {
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toMatch(/<meta charset="utf-8">/i);
      expect(page.headers['x-request-id']).toMatch(UUID);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
    });

    it('has a policy that allows its own scripts and its inline styles by hash, and nothing else', () => {
      const policy = directives(page);
      const inlineStyles = [...page.text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]));
      const styleAttributes = [...page.text.matchAll(/ style="([^"]*)"/g)].map((m) => sha256(m[1]));
      expect(inlineStyles.length).toBeGreaterThan(0);
      expect(Object.fromEntries(policy)).toEqual({
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", ...inlineStyles, "'unsafe-hashes'", ...styleAttributes],
        'img-src': ["'self'", 'data:'],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
      // Every script of the page is a file of the service.
      expect(page.text).not.toMatch(/<script>/);
      expect([...page.text.matchAll(/<script src=["']([^"']+)["']/g)].map((m) => m[1])).toEqual([
        './docs/swagger-ui-bundle.js',
        './docs/swagger-ui-standalone-preset.js',
        './docs/swagger-ui-init.js',
      ]);
    });

    it('is the same page at /docs/, its assets relative to it', async () => {
      const slash = await t.http().get('/docs/').expect(200);
      expect(slash.text).toMatch(/<script src=["']\.\/swagger-ui-bundle\.js["']/);
      expect(slash.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    });

    it.each(PAGE_ASSETS)(
      'serves %s itself, with the strict policy (the page alone has its own)',
      async (path, type) => {
        const res = await t.http().get(path).expect(200);
        expect(res.headers['content-type']).toMatch(type);
        expect(res.headers['content-security-policy']).toBe(API_POLICY);
        expect(res.headers['x-request-id']).toMatch(UUID);
      },
    );

    it('lets browsers keep the static assets and revalidate them', async () => {
      const first = await t.http().get('/docs/swagger-ui-bundle.js').expect(200);
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(first.headers.etag).toEqual(expect.any(String));
      await t.http().get('/docs/swagger-ui-bundle.js').set('If-None-Match', first.headers.etag).expect(304);
    });

    it('holds the document /openapi.json serves in its init script', async () => {
      const document = (await t.http().get('/openapi.json').expect(200)).body;
      const init = (await t.http().get('/docs/swagger-ui-init.js').expect(200)).text;
      expect(init).toContain(JSON.stringify(document.info.description));
      for (const path of Object.keys(document.paths)) expect(init).toContain(JSON.stringify(path));
    });

    it.each([
      '/docs/index.html',
      '/docs/swagger-initializer.js',
      '/docs/oauth2-redirect.html',
      '/docs/swagger-ui.js.map',
      '/docs/package.json',
      '/docs/README.md',
      '/docs/LICENSE',
      '/docs/docs/swagger-ui-init.js',
      '/docs-json',
      '/docs-yaml',
    ])('answers %s, a file the page does not load, 404 ROUTE_NOT_FOUND in JSON', async (path) => {
      const res = await t.http().get(path).expect(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body.error.code).toBe('ROUTE_NOT_FOUND');
      expect(res.headers['content-security-policy']).toBe(API_POLICY);
    });

    it.each(['post', 'put', 'delete', 'options'] as const)(
      'answers %s /docs 404 ROUTE_NOT_FOUND saying only GET and HEAD exist',
      async (method) => {
        const res = await t.http()[method]('/docs').expect(404);
        expect(res.body.error.code).toBe('ROUTE_NOT_FOUND');
        expect(res.body.error.message).toContain('/docs answers GET and HEAD only');
      },
    );

    it('needs no key and is not metered: a key that is sent is not even checked', async () => {
      await t.http().get('/docs').set('Authorization', 'Bearer not-a-key').expect(200);
      const keyed = await t.get('/docs').expect(200);
      expect(keyed.headers['x-ratelimit-limit']).toBeUndefined();
    });
  });
});
