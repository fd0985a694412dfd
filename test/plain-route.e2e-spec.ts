import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OpenApiConformance } from './support/openapi-conformance';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type TestApp, createTestApp } from './support/test-app';
import { awaitRoomInMinute } from './support/timing';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { RouteDefaults } from '../src/route-kit/route-defaults';
import { ForgetfulController, PlainController, PlainModule } from './example-plain/plain.module';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A controller written as plain NestJS (test/example-plain: no decorator of the route kit), passed in
 * `modules` as `startServer` passes them, holds the contract: key, limits, strict query, envelope,
 * JSON, error envelope, and an OpenAPI operation of a metered route.
 */
describe('a plain NestJS controller registered through modules: GET /v1/plain', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { modules: [PlainModule] });
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'plain-1' });
  });
  afterAll(async () => {
    if (t) await t.close();
  });

  it('refuses a request without a key: 401 MISSING_API_KEY', async () => {
    const res = await t.http().get('/v1/plain?foo=1').expect(401);
    expect(res.body.error.code).toBe('MISSING_API_KEY');
  });

  it('answers with the rate-limit headers of its key', async () => {
    const { key } = await t.apiKeys.create({ name: 'plain', rpm: 50, monthlyQuota: 1000 });
    await awaitRoomInMinute();
    const res = await t.http().get('/v1/plain').set('Authorization', `Bearer ${key}`).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('50');
    expect(res.headers['x-ratelimit-remaining']).toBe('49');
    expect(res.headers['ratelimit']).toMatch(/^"minute";r=49;t=\d+, "month";r=999;t=\d+$/);
  });

  it('refuses an unknown query parameter after the key: 400 VALIDATION_ERROR, and reads a declared one', async () => {
    const res = await t.get('/v1/plain?foo=1').expect(400);
    expect(res.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Unknown query parameter "foo". Accepted: genre.',
        request_id: res.headers['x-request-id'],
      },
    });
    const none = await t.get('/v1/plain/text?foo=1').expect(400);
    expect(none.body.error.message).toBe(
      'Unknown query parameter "foo": this route takes no query parameters.',
    );
    const declared = await t.get('/v1/plain?genre=Drama').expect(200);
    expect(declared.body.data).toEqual(['Drama']);
    // A @Query() DTO declares its validated properties, and checks their values.
    expect((await t.get('/v1/plain/range?from=12').expect(200)).body.data).toEqual([{ from: '12' }]);
    const bad = await t.get('/v1/plain/range?from=x').expect(400);
    expect(bad.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'from must be 1 to 4 digits.',
    });
    const other = await t.get('/v1/plain/range?to=3').expect(400);
    expect(other.body.error.message).toBe('Unknown query parameter "to". Accepted: from.');
  });

  it('sends its value in the envelope with meta.request_id, as application/json', async () => {
    const list = await t.get('/v1/plain').set('X-Request-Id', 'plain-1').expect(200);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(list.text).toBe('{"data":["one","two"],"meta":{"request_id":"plain-1"}}');
    const item = await t.get('/v1/plain/item/tt1').set('X-Request-Id', 'plain-2').expect(200);
    expect(item.body).toEqual({ data: [{ id: 'tt1' }], meta: { request_id: 'plain-2' } });
    const text = await t.get('/v1/plain/text').set('X-Request-Id', 'plain-3').expect(200);
    expect(text.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(text.body).toEqual({ data: ['a string'], meta: { request_id: 'plain-3' } });
  });

  it('answers a thrown Error with 500 INTERNAL_ERROR and no stack, an HttpException with its envelope', async () => {
    const broken = await t.get('/v1/plain/broken').expect(500);
    expect(broken.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(broken.body).toEqual({
      error: {
        code: 'INTERNAL_ERROR',
        message: 'An internal error occurred.',
        request_id: expect.any(String),
      },
    });
    expect(broken.text).not.toContain('stack');
    const refused = await t.get('/v1/plain/refused').expect(400);
    expect(refused.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
      request_id: refused.headers['x-request-id'],
    });
  });

  it('is in /openapi.json as a metered route: bearer security, the envelope and every error answer', async () => {
    const { body: document } = await t.http().get('/openapi.json').expect(200);
    const operation: Json = document.paths['/v1/plain'].get;
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '429', '500']);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/DataEnvelope',
    });
    expect(operation.responses['200'].headers['X-RateLimit-Limit']).toBeDefined();
    expect(operation.parameters.map((parameter: Json) => parameter.name).sort()).toEqual([
      'X-Request-Id',
      'genre',
    ]);
    expect(document.paths['/v1/plain'].head.security).toEqual([{ bearer: [] }]);
    // Described by default, so the linters pass: a summary naming the handler, a tag for the controller.
    expect(operation.summary).toBe('PlainController.list');
    expect(operation.tags).toEqual(['Plain']);
    expect(document.tags).toContainEqual({ name: 'Plain', description: expect.any(String) });
    expect(document.paths['/v1/plain/text'].get.security).toEqual([{ bearer: [] }]);
  });

  it("leaves every route of the service's own as it was: none has anything added", () => {
    const routes = t.app.get(RouteDefaults);
    const scanner = t.app.get(MetadataScanner);
    const own = t.app
      .get(DiscoveryService)
      .getControllers()
      .map(({ metatype }) => metatype as unknown as { name: string; prototype: Record<string, object> })
      .filter(
        (controller) =>
          controller !== (PlainController as unknown) && controller !== (ForgetfulController as unknown),
      );
    expect(own.map((controller) => controller.name)).toEqual(
      expect.arrayContaining([
        'CatalogController',
        'UsageController',
        'HealthController',
        'OpenApiController',
      ]),
    );
    for (const controller of own) {
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        expect({
          route: `${controller.name}.${name}`,
          plan: routes.planFor(controller.prototype[name]),
        }).toEqual({
          route: `${controller.name}.${name}`,
          plan: undefined,
        });
      }
    }
  });

  it("holds the guide's example without @Metered() and @ValidatedQuery(): key, strict query, its own envelope, described", async () => {
    await t.http().get('/v1/forgetful').expect(401);
    const unknown = await t.get('/v1/forgetful?foo=1').expect(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    const res = await t.get('/v1/forgetful').set('X-Request-Id', 'forgetful-1').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe('{"data":["kept as written"],"meta":{"request_id":"forgetful-1"}}');
    const { body: document } = await t.http().get('/openapi.json').expect(200);
    const operation: Json = document.paths['/v1/forgetful'].get;
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '429', '500']);
  });

  it('is answered as its document says, and the document stays valid OpenAPI 3.1', async () => {
    const res = await t.http().get('/openapi.json').expect(200);
    const conformance = await OpenApiConformance.of(res.body);
    for (const path of [
      '/v1/plain',
      '/v1/plain/text',
      '/v1/plain?foo=1',
      '/v1/plain/broken',
      '/v1/forgetful',
    ]) {
      const answer = await t.get(path);
      expect({ path, violations: conformance.violations({ method: 'GET', path, res: answer }) }).toEqual({
        path,
        violations: [],
      });
    }
    const workDir = mkdtempSync(join(tmpdir(), 'catalog-plain-'));
    try {
      writeFileSync(join(workDir, 'openapi.json'), res.text);
      const bin = join(__dirname, '..', 'node_modules', '.bin', 'validate-api');
      const { stdout } = await promisify(execFile)(bin, [join(workDir, 'openapi.json')]);
      expect(JSON.parse(stdout)).toEqual({ valid: true });
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
