import { Controller, Get, type INestApplication, type NestApplicationOptions } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Express } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import request from 'supertest';
import { AppPrototypesExpressAdapter } from './app-prototypes.adapter';
import { ByteAnswerExpressAdapter } from './byte-answer.adapter';
import { TlsFiles } from '../../test/support/tls-files';

@Controller()
class SampleController {
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
  // Before Express's own listener: what Node made, before Express would set the prototypes itself.
  server.prependListener('request', note);
  try {
    await send();
  } finally {
    server.off('request', note);
  }
  return arrived;
}

describe.each([AppPrototypesExpressAdapter, ByteAnswerExpressAdapter])('%p', (Adapter) => {
  const tls = new TlsFiles();
  afterAll(() => tls.cleanup());

  async function appWith(options: NestApplicationOptions): Promise<INestApplication> {
    const module = await Test.createTestingModule({ controllers: [SampleController] }).compile();
    const app = module.createNestApplication(new Adapter(), { logger: false, ...options });
    await app.init();
    return app;
  }

  it("makes every request and response on the app's prototypes, before Express sees them", async () => {
    const app = await appWith({});
    try {
      const arrived = await prototypesOnArrival(app, async () => {
        await request(app.getHttpServer()).get('/object').expect(200, { data: [] });
        await request(app.getHttpServer()).get('/nowhere').expect(404);
      });
      expect(arrived).toEqual([ON_APP_PROTOTYPES, ON_APP_PROTOTYPES]);
    } finally {
      await app.close();
    }
  });

  it("does so through Nest's HTTPS options", async () => {
    const { cert, key } = tls.selfSigned('adapter');
    const app = await appWith({ httpsOptions: { cert, key } });
    try {
      expect(app.getHttpServer()).toBeInstanceOf(HttpsServer);
      const arrived = await prototypesOnArrival(app, async () => {
        await request(app.getHttpServer()).get('/object').disableTLSCerts().expect(200, { data: [] });
      });
      expect(arrived).toEqual([ON_APP_PROTOTYPES]);
    } finally {
      await app.close();
    }
  });

  it("keeps Nest's own server with forceCloseConnections, which tracks that server's connections", async () => {
    const app = await appWith({ forceCloseConnections: true });
    try {
      const arrived = await prototypesOnArrival(app, async () => {
        await request(app.getHttpServer()).get('/object').expect(200, { data: [] });
      });
      expect(arrived).toEqual([{ request: false, response: false }]);
    } finally {
      await app.close();
    }
  });
});
