import express from 'express';
import request from 'supertest';
import { SECURITY_HEADER_LINES, securityHeaders } from './security-headers';

const CSP_DIRECTIVES = ["default-src 'none'", "frame-ancestors 'none'"];

/** The policy's directives, whatever whitespace separates them. */
const directives = (policy: string | undefined) => (policy ?? '').split(';').map((part) => part.trim());

function app(trustProxy: boolean) {
  return express()
    .set('trust proxy', trustProxy)
    .use(securityHeaders)
    .get('/cached', (_req, res) => {
      res.set('Cache-Control', 'private, max-age=0, must-revalidate').json({});
    })
    .get('/plain', (_req, res) => {
      res.json({});
    });
}

describe('securityHeaders', () => {
  it('sets the fixed headers and no-store, and nothing else of Helmet', async () => {
    const res = await request(app(false)).get('/plain');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(directives(res.headers['content-security-policy'])).toEqual(CSP_DIRECTIVES);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    for (const other of ['x-frame-options', 'cross-origin-opener-policy', 'x-dns-prefetch-control']) {
      expect(res.headers[other]).toBeUndefined();
    }
  });

  it('leaves a route its own cache policy, and answers unknown routes with the headers too', async () => {
    expect((await request(app(false)).get('/cached')).headers['cache-control']).toBe(
      'private, max-age=0, must-revalidate',
    );
    const missing = await request(app(false)).get('/missing');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends HSTS only when a trusted proxy says the request was HTTPS', async () => {
    const forged = await request(app(false)).get('/plain').set('X-Forwarded-Proto', 'https');
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    const trusted = await request(app(true)).get('/plain').set('X-Forwarded-Proto', 'https');
    expect(trusted.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('gives raw refusals the same lines, HSTS only over TLS', () => {
    expect(SECURITY_HEADER_LINES.http).toContain('X-Content-Type-Options: nosniff\r\n');
    expect(SECURITY_HEADER_LINES.http).toContain('Cache-Control: no-store\r\n');
    expect(SECURITY_HEADER_LINES.http).not.toContain('Strict-Transport-Security');
    expect(SECURITY_HEADER_LINES.https).toContain(
      'Strict-Transport-Security: max-age=31536000; includeSubDomains\r\n',
    );
  });
});
