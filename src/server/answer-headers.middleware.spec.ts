import express from 'express';
import request from 'supertest';
import { answerHeaders } from './answer-headers.middleware';
import { SECURITY_HEADER_LINES } from './security-headers';

const CSP_DIRECTIVES = ["default-src 'none'", "frame-ancestors 'none'"];

/** The policy's directives, whatever whitespace separates them. */
const directives = (policy: string | undefined) => (policy ?? '').split(';').map((part) => part.trim());

function app(trustProxy: boolean) {
  return express()
    .disable('x-powered-by')
    .set('etag', false)
    .set('trust proxy', trustProxy)
    .use(answerHeaders)
    .get('/cached', (_req, res) => {
      res.set('Cache-Control', 'private, max-age=0, must-revalidate').json({});
    })
    .get('/plain', (_req, res) => {
      res.json({});
    });
}

describe('answerHeaders', () => {
  it('sets the security headers, no-store and the request id, and nothing else', async () => {
    const res = await request(app(false)).get('/plain');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(directives(res.headers['content-security-policy'])).toEqual(CSP_DIRECTIVES);
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // The set Helmet sent with everything but these three turned off, plus no-store and the id.
    expect(Object.keys(res.headers).sort()).toEqual([
      'cache-control',
      'connection',
      'content-length',
      'content-security-policy',
      'content-type',
      'date',
      'referrer-policy',
      'x-content-type-options',
      'x-request-id',
    ]);
  });

  it("echoes the client's acceptable request id", async () => {
    const res = await request(app(false)).get('/plain').set('X-Request-Id', 'abc.DEF_1-2');
    expect(res.headers['x-request-id']).toBe('abc.DEF_1-2');
  });

  it('leaves a route its own cache policy, and answers unknown routes with the headers too', async () => {
    expect((await request(app(false)).get('/cached')).headers['cache-control']).toBe(
      'private, max-age=0, must-revalidate',
    );
    const missing = await request(app(false)).get('/missing');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    expect(missing.headers['x-request-id']).toBeDefined();
  });

  it('sends HSTS only when a trusted proxy says the request was HTTPS', async () => {
    const forged = await request(app(false)).get('/plain').set('X-Forwarded-Proto', 'https');
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    const trusted = await request(app(true)).get('/plain').set('X-Forwarded-Proto', 'https');
    expect(trusted.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('gives raw refusals the same lines, HSTS only over TLS', () => {
    expect(SECURITY_HEADER_LINES.http).toBe(
      'Cache-Control: no-store\r\n' +
        "Content-Security-Policy: default-src 'none';frame-ancestors 'none'\r\n" +
        'Referrer-Policy: no-referrer\r\n' +
        'X-Content-Type-Options: nosniff\r\n',
    );
    expect(SECURITY_HEADER_LINES.https).toBe(
      SECURITY_HEADER_LINES.http + 'Strict-Transport-Security: max-age=31536000; includeSubDomains\r\n',
    );
  });
});
