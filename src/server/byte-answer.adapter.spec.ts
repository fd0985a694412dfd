import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { Conditional, type ConditionalReply, entityTag } from '../common/conditional/conditional-reply';
import { ByteString } from '../common/envelope';
import { ByteAnswerExpressAdapter } from './byte-answer.adapter';

const TEXT = '{"data":[{"title":"東京物語 Amélie"}],"meta":{"request_id":"r"}}';

@Controller()
class SampleController {
  @Get('bytes')
  bytes(@Conditional() reply: ConditionalReply) {
    return reply.json({ version: 'v1', value: TEXT }, (text) => Buffer.from(text, 'utf8'));
  }

  @Get('text')
  text(@Conditional() reply: ConditionalReply) {
    return reply.json({ version: 'v1', value: TEXT }, (text) => text);
  }

  @Get('byte-string')
  byteString() {
    return new ByteString(Buffer.from(TEXT, 'utf8').toString('latin1'));
  }

  @Get('object')
  object() {
    return { data: [] };
  }

  @Get('plain-text')
  plainText() {
    return '{"data":["JSON text"]}';
  }
}

describe('ByteAnswerExpressAdapter', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const module = await Test.createTestingModule({ controllers: [SampleController] }).compile();
    app = module.createNestApplication(new ByteAnswerExpressAdapter(), { logger: false });
    app.getHttpAdapter().getInstance().set('etag', false);
    await app.init();
  });
  afterAll(() => app.close());

  const get = (path: string) => request(app.getHttpServer()).get(path);
  /** What an answer put on the wire, apart from the headers that differ by the moment. */
  const wire = (res: request.Response) => ({
    status: res.status,
    body: res.text,
    type: res.headers['content-type'],
    length: res.headers['content-length'],
    etag: res.headers.etag,
  });

  it('sends bytes as they are, with the headers the same text gets', async () => {
    const bytes = await get('/bytes').expect(200);
    const text = await get('/text').expect(200);
    expect(wire(bytes)).toEqual({ ...wire(text), etag: entityTag('v1', '/bytes') });
    expect(bytes.text).toBe(TEXT);
    expect(bytes.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(bytes.headers['content-length'])).toBe(Buffer.byteLength(TEXT));
  });

  it("sends a byte string's bytes, one a character, with their length", async () => {
    const res = await get('/byte-string').buffer(true).expect(200);
    expect(res.text).toBe(TEXT);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(TEXT));
    const head = await request(app.getHttpServer()).head('/byte-string').expect(200);
    expect(head.text).toBeUndefined();
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(TEXT));
  });

  it('answers HEAD and a fresh copy as for text', async () => {
    const head = await request(app.getHttpServer()).head('/bytes').expect(200);
    expect(head.text).toBeUndefined();
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(TEXT));
    const fresh = await get('/bytes').set('If-None-Match', entityTag('v1', '/bytes')).expect(304);
    expect(fresh.text).toBe('');
  });

  it("leaves every other answer to Nest's reply", async () => {
    const res = await get('/object').expect(200);
    expect(res.body).toEqual({ data: [] });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('sends text a handler returns without a type of its own as JSON, not text/html', async () => {
    const res = await get('/plain-text').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe('{"data":["JSON text"]}');
  });
});
