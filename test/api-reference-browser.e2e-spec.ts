import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { FIXTURE_TITLES } from './support/catalog-fixture';
import { type Chromium, launchChromium } from './support/chromium';
import { type TestApp, createTestApp } from './support/test-app';

/** Where the screenshot goes; docs/api.md shows the one at docs/api-reference.png (see there). */
const SCREENSHOT = process.env.API_REFERENCE_SCREENSHOT ?? join(tmpdir(), 'catalog-api-reference.png');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What the tests read in the page (this project compiles without the DOM's types). Functions run in
 * the page are sent as source: they refer to nothing outside themselves.
 */
interface PageGlobals {
  document: { characterSet: string; querySelectorAll(selector: string): { length: number } };
  ui: { specSelectors: { specJson(): { toJS(): unknown } } };
  cspViolations: string[];
}

/** Reported by the browser for each blocked load, inline style or script, whatever the console says. */
const RECORD_VIOLATIONS = `
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) =>
    window.cspViolations.push(event.effectiveDirective + ' ' + event.blockedURI));
`;

describe('the API reference in a real browser (headless Chromium)', () => {
  let t: TestApp;
  let browser: Chromium;
  let page: Page;
  let origin: string;
  let described: Json;
  const consoleErrors: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    t = await createTestApp();
    await t.writer.replaceCatalog({ titles: FIXTURE_TITLES }, { catalogVersion: 'browser-1' });
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    described = (await t.http().get('/openapi.json').expect(200)).body;

    // Nothing may leave the machine: a request to another origin is recorded and refused.
    await browser.context.route('**/*', (route) =>
      new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
    );
    page = await browser.context.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    await page.addInitScript({ content: RECORD_VIOLATIONS });
    await page.goto(`${origin}/docs`, { waitUntil: 'load' });
    const operations = Object.values(described.paths).flatMap((item) => Object.keys(item as Json)).length;
    await page.waitForFunction(
      (count) => (globalThis as unknown as PageGlobals).document.querySelectorAll('.opblock').length >= count,
      operations,
      {
        timeout: 30_000,
      },
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every path and every operation of the document, and nothing else', async () => {
    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase();
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path');
        return `${method} ${path}`;
      }),
    );
    const documented = Object.entries(described.paths).flatMap(([path, item]) =>
      Object.keys(item as Json).map((method) => `${method} ${path}`),
    );
    expect(rendered.sort()).toEqual(documented.sort());
    expect(new Set(rendered).size).toBe(rendered.length);
  });

  it('renders the document /openapi.json serves, unchanged', async () => {
    const shown = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).ui.specSelectors.specJson().toJS(),
    );
    expect(shown).toEqual(described);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.characterSet)).toBe(
      'UTF-8',
    );
  });

  it('logged no error or warning and reported no policy violation', async () => {
    expect(consoleErrors).toEqual([]);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).cspViolations)).toEqual([]);
  });

  it('asked nothing of any origin but the service, and only what it serves', () => {
    const outside = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
    expect(outside).toEqual([]);
    expect(
      requests
        .filter((url) => url.startsWith(origin))
        .map((url) => new URL(url).pathname)
        .sort(),
    ).toEqual(
      [
        '/docs',
        '/docs/favicon-32x32.png',
        '/docs/swagger-ui-bundle.js',
        '/docs/swagger-ui-init.js',
        '/docs/swagger-ui-standalone-preset.js',
        '/docs/swagger-ui.css',
      ].sort(),
    );
  });

  it('offers no key field, no Authorize button and no Try it out, and says how to call from a server', async () => {
    expect(await page.locator('.btn.authorize, .authorization__btn').count()).toBe(0);
    await page.locator('.opblock-summary').first().click();
    await page.waitForSelector('.opblock-body');
    expect(await page.locator('.try-out__btn, .execute, input[type="password"]').count()).toBe(0);
    const usage = await page.locator('#calling-from-a-server').innerText();
    expect(usage).toContain('Calling the API from a server');
    expect(usage).toContain(`curl -H "Authorization: Bearer $CATALOG_API_KEY" "${origin}/v1/search`);
    expect(usage).toContain('meta.page < meta.total_pages');
    await page.locator('.opblock-summary').first().click();
  });

  it('writes a screenshot (PNG)', async () => {
    await page.locator('.opblock-summary').first().blur();
    const png = await page.screenshot({ fullPage: true });
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    writeFileSync(SCREENSHOT, png);
  });

  // Last: it breaks the policy on purpose.
  it('would have seen a violation: one made on purpose is recorded, and logged', async () => {
    await page.evaluate(() =>
      (
        globalThis as unknown as { document: { body: { setAttribute(n: string, v: string): void } } }
      ).document.body.setAttribute('style', 'color: red'),
    );
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).cspViolations.length > 0);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).cspViolations)).toEqual([
      'style-src-attr inline',
    ]);
    expect(consoleErrors).toEqual([expect.stringContaining('Content Security Policy')]);
  });
});
