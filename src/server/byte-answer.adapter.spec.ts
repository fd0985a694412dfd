import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Express } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import request from 'supertest';
import { Conditional, type ConditionalReply, entityTag } from '../common/conditional/conditional-reply';
import { ByteString } from '../common/envelope';
import { ByteAnswerExpressAdapter } from './byte-answer.adapter';
import { TlsFiles } from '../../test/support/tls-files';

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
}

const ON_APP_PROTOTYPES = { request: true, response: true };

/** For each request `send` makes: whether it and its response arrived on the Express app's prototypes. */
async function prototypesOnArrival(app: INestApplication, send: () => Promise<void>) {
  const express = app.getHttpAdapter().getInstance() as Express;
  const server = app.getHttpServer() as Server;
  const arrived: Array<typeof ON_APP_PROTOTYPES> = [];
  const note = (req: IncomingMessage, res: ServerResponse) =>
    arrived.push({
      request: Object.getPrototypeOf(req) === express.request,
      response: Object.getPrototypeOf(res) === express.response,
    });
  // Before Express's own listener: what Node made, before Express sets the prototypes itself.
  server.prependListener('request', note);
  try {
    await send();
  } finally {
    server.off('request', note);
  }
  return arrived;
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

  it("makes every request and response on the app's prototypes, before Express sees them", async () => {
    const arrived = await prototypesOnArrival(app, async () => {
      await get('/byte-string').expect(200);
      await get('/object').expect(200);
    });
    expect(arrived).toEqual([ON_APP_PROTOTYPES, ON_APP_PROTOTYPES]);
  });

  it("leaves every other answer to Nest's reply", async () => {
    const res = await get('/object').expect(200);
    expect(res.body).toEqual({ data: [] });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('ByteAnswerExpressAdapter over HTTPS', () => {
  const tls = new TlsFiles();
  let app: INestApplication;

  beforeAll(async () => {
    const { cert, key } = tls.selfSigned('adapter');
    const module = await Test.createTestingModule({ controllers: [SampleController] }).compile();
    app = module.createNestApplication(new ByteAnswerExpressAdapter(), {
      logger: false,
      httpsOptions: { cert, key },
    });
    await app.init();
  });
  afterAll(async () => {
    await app.close();
    tls.cleanup();
  });

  it("makes requests and responses on the app's prototypes through Nest's HTTPS options", async () => {
    expect(app.getHttpServer()).toBeInstanceOf(HttpsServer);
    const arrived = await prototypesOnArrival(app, async () => {
      await request(app.getHttpServer()).get('/byte-string').disableTLSCerts().expect(200, TEXT);
    });
    expect(arrived).toEqual([ON_APP_PROTOTYPES]);
  });
});
