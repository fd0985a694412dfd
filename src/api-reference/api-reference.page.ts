import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { KnownRoutes } from '../common/routing/known-routes';
import { OpenApiDocument } from '../openapi/openapi-document.store';
import { referencePagePlugin } from './page-plugin';
import { pageGate } from './page-policy';

/** Where the page is served. */
export const REFERENCE_PATH = '/docs';

/** How to call the API, shown under the document's description (`{origin}`: the page's origin). */
const SERVER_USAGE = `### Calling the API from a server

Catalog routes (\`/v1\`) need an API key, sent as \`Authorization: Bearer <key>\`. A key is a secret of
your server: keep it in the server's secret storage and call the API from there, never from a browser.
This page therefore asks for no key and sends no requests.

\`\`\`sh
curl -H "Authorization: Bearer $CATALOG_API_KEY" "{origin}/v1/search?q=the+godfather&limit=5"
\`\`\`

From Node.js 18 or newer, every page of a list (while \`meta.page < meta.total_pages\`):

\`\`\`js
const headers = { Authorization: \`Bearer \${process.env.CATALOG_API_KEY}\` };
for (let page = 1, pages = 1; page <= pages; page++) {
  const res = await fetch(\`{origin}/v1/movies?page=\${page}&limit=20\`, { headers });
  const body = await res.json();
  if (!res.ok) throw new Error(\`\${res.status} \${body.error.code}: \${body.error.message}\`);
  pages = body.meta.total_pages;
  for (const title of body.data) console.log(title.imdb_id, title.title);
}
\`\`\`

The document rendered here is [/openapi.json](/openapi.json): generate a typed client from it
(openapi-typescript, for instance). After a 429, wait the seconds of \`Retry-After\`.`;

/**
 * Swagger UI over `/openapi.json`, read-only. Mounted after the controllers' routes so no API
 * request passes its layers.
 */
@Injectable()
export class ApiReferencePage implements OnModuleInit {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly routes: KnownRoutes,
  ) {}

  onModuleInit(): void {
    const app = this.document.application();
    app.use(REFERENCE_PATH, pageGate);
    SwaggerModule.setup(REFERENCE_PATH, app, () => this.document.get(), {
      raw: false,
      customSiteTitle: 'Catalog API reference',
      swaggerOptions: {
        // The document's operations and schemas without Swagger UI's top bar (a URL box).
        layout: 'BaseLayout',
        supportedSubmitMethods: [],
        tryItOutEnabled: false,
        validatorUrl: null,
        plugins: [referencePagePlugin],
        serverUsage: SERVER_USAGE,
      },
    });
    this.routes.add(REFERENCE_PATH);
  }
}
