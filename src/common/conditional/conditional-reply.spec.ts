import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { Controller, Get, type INestApplication, NotFoundException, Query } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { ByteAnswerExpressAdapter } from '../../server/byte-answer.adapter';
import { EnvelopeBytes } from '../envelope';
import { assignRequestId } from '../request-id/request-id';
import { Conditional, type ConditionalReply, entityTag } from './conditional-reply';

let version: string | null = 'v1';
let handled = 0;
let enveloped = 0;

@Controller()
class SampleController {
  @Get('item')
  async item(@Conditional() reply: ConditionalReply, @Query('fail') fail?: string) {
    handled++;
    await Promise.resolve();
    if (fail) throw new NotFoundException();
    return reply.json({ version, value: [{ id: 1 }] }, (data) => {
      enveloped++;
      return JSON.stringify({ data, meta: { request_id: String(handled) } });
    });
  }

  @Get('envelope')
  envelope(@Conditional() reply: ConditionalReply) {
    return reply.envelope({ version, value: EnvelopeBytes.item('{"id":"東京"}') });
  }

  @Get('plain')
  plain() {
    return { data: [] };
  }
}

describe('ConditionalReply', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const module = await Test.createTestingModule({ controllers: [SampleController] }).compile();
    // As the service does: bytes are sent as they are.
    app = module.createNestApplication(new ByteAnswerExpressAdapter(), { logger: false });
    // As configureApp does: Express's own body-hash ETag is off.
    app.getHttpAdapter().getInstance().set('etag', false);
    // As answerHeaders does first: every request gets its id.
    app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
      assignRequestId(req, res);
      next();
    });
    await app.init();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    version = 'v1';
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    request(app.getHttpServer()).get(path).set(headers);

  it('keeps the tag of a version and target stable: 27 characters of their SHA-256, base64url', () => {
    const digest = createHash('sha256').update('v1').update('\0').update('/v1/titles/tt0111161');
    expect(entityTag('v1', '/v1/titles/tt0111161')).toBe(`"${digest.digest('base64url').slice(0, 27)}"`);
    expect(entityTag('v1', '/v1/titles/tt0111161')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('tags a versioned answer from the version and the request target, not the body', async () => {
    const first = await get('/item').expect(200);
    const second = await get('/item').expect(200);
    expect(first.body.meta.request_id).not.toBe(second.body.meta.request_id);
    expect(first.headers.etag).toBe(entityTag('v1', '/item'));
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await get('/item?x=1')).headers.etag).not.toBe(first.headers.etag);
    version = 'v2';
    expect((await get('/item')).headers.etag).toBe(entityTag('v2', '/item'));
  });

  it('answers 304 with no body to a matching If-None-Match: one tag, a list, a weak form, *', async () => {
    const tag = entityTag('v1', '/item');
    for (const condition of [tag, `"other", ${tag}`, `W/${tag}`, '*']) {
      const before = enveloped;
      const res = await get('/item', { 'If-None-Match': condition }).expect(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(tag);
      expect(res.headers['content-type']).toBeUndefined();
      // A fresh copy is answered without building the envelope.
      expect(enveloped).toBe(before);
    }
  });

  it('answers 200 with the body to a stale or foreign tag', async () => {
    const stale = entityTag('v0', '/item');
    const res = await get('/item', { 'If-None-Match': stale }).expect(200);
    expect(res.body.data).toEqual([{ id: 1 }]);
    await get('/item', { 'If-None-Match': entityTag('v1', '/item?x=1') }).expect(200);
  });

  it('HEAD is GET without a body, 304 included', async () => {
    const head = await request(app.getHttpServer()).head('/item').expect(200);
    expect(head.headers.etag).toBe(entityTag('v1', '/item'));
    expect(head.text).toBeUndefined();
    await request(app.getHttpServer()).head('/item').set('If-None-Match', head.headers.etag).expect(304);
  });

  it("writes a cached envelope with each request's id, tagged as json does", async () => {
    const first = await get('/envelope', { 'X-Request-Id': 'first-id' }).expect(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers.etag).toBe(entityTag('v1', '/envelope'));
    expect(first.text).toBe('{"data":[{"id":"東京"}],"meta":{"request_id":"first-id"}}');
    const second = await get('/envelope').expect(200);
    expect(second.body.meta.request_id).toBe(second.headers['x-request-id']);
    const fresh = await get('/envelope', { 'If-None-Match': first.headers.etag }).expect(304);
    expect(fresh.text).toBe('');
  });

  it('sends no ETag when the version is unknown, on failures, or for other answers', async () => {
    version = null;
    const unversioned = await get('/item').expect(200);
    expect(unversioned.headers.etag).toBeUndefined();
    expect(unversioned.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(unversioned.body.data).toEqual([{ id: 1 }]);
    version = 'v1';
    const failed = await get('/item?fail=1', { 'If-None-Match': '*' }).expect(404);
    expect(failed.headers.etag).toBeUndefined();
    expect((await get('/plain').expect(200)).headers.etag).toBeUndefined();
  });
});
