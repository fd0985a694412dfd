import { ERROR_CATALOGUE } from './error-catalogue';
import {
  READ_ONLY_MESSAGE,
  ROOT_MESSAGE,
  WRONG_CASE_MESSAGE,
  routeNotFoundLinks,
  routeNotFoundMessage,
} from './route-not-found';

const NOT_FOUND = ERROR_CATALOGUE.ROUTE_NOT_FOUND.message;
const ROUTES = [
  '/health',
  '/openapi.json',
  '/v1/search',
  '/v1/titles/:imdb_id',
  '/v1/movies',
  '/v1/series',
  '/v1/usage',
  '/docs',
];
const get = (path: string) => routeNotFoundMessage({ method: 'GET', path }, ROUTES);

describe('routeNotFoundMessage', () => {
  it.each([
    ['/search', '/v1/search'],
    ['/movies', '/v1/movies'],
    ['/v1/title/tt0111161', '/v1/titles/{imdb_id}'],
    ['/titles/tt0111161', '/v1/titles/{imdb_id}'],
    ['/v1/titles', '/v1/titles/{imdb_id}'],
    ['/v2/movies', '/v1/movies'],
    ['/v1/movie', '/v1/movies'],
    ['/v1/serie', '/v1/series'],
    ['/v1/searches', '/v1/search'],
    ['/v1/movies/2', '/v1/movies'],
    ['/v1/health', '/health'],
    ['/api', '/docs'],
    ['/swagger/', '/docs'],
    ['/redoc', '/docs'],
    ['/docs/index.html', '/docs'],
    ['/openapi.yaml', '/openapi.json'],
  ])('answers GET %s naming %s', (path, route) => {
    expect(get(path)).toBe(`${NOT_FOUND} Did you mean ${route}?`);
  });

  it('names no route for a path close to none, and points to where the routes are listed', () => {
    for (const path of ['/nope', '/v1', '/v1/nothing', '/metrics', '/a/b/c/d/e/f/g/h/i/j']) {
      expect(get(path)).toBe(`${NOT_FOUND} The routes are listed at /docs and /openapi.json.`);
    }
    expect(get(`/${'x'.repeat(300)}`)).not.toContain('Did you mean');
    expect(routeNotFoundMessage({ method: 'GET', path: '/nope' })).toBe(NOT_FOUND);
  });

  it('says paths are lowercase, and names the route a path with capitals meant', () => {
    expect(get('/V1/MOVIES')).toBe(`${WRONG_CASE_MESSAGE} Did you mean /v1/movies?`);
    expect(get('/Nothing')).toBe(WRONG_CASE_MESSAGE);
  });

  it('says that only GET and HEAD exist for any other method, naming the route when the path is one', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      expect(routeNotFoundMessage({ method, path: '/v1/search' }, ROUTES)).toBe(
        `${NOT_FOUND} /v1/search answers GET and HEAD only: the API is read-only.`,
      );
    }
    expect(routeNotFoundMessage({ method: 'POST', path: '/v1/titles/tt1' }, ROUTES)).toContain(
      '/v1/titles/{imdb_id} answers GET and HEAD only',
    );
    expect(routeNotFoundMessage({ method: 'POST', path: '/nope' }, ROUTES)).toBe(READ_ONLY_MESSAGE);
    expect(READ_ONLY_MESSAGE).toContain('GET and HEAD only');
  });

  it('answers GET and HEAD of / naming /docs and /openapi.json, in the message and the Link header', () => {
    for (const method of ['GET', 'HEAD']) {
      expect(routeNotFoundMessage({ method, path: '/' }, ROUTES)).toBe(ROOT_MESSAGE);
      expect(routeNotFoundLinks({ method, path: '/' }, ROUTES)).toBe(
        '</docs>; rel="service-doc"; type="text/html", </openapi.json>; rel="service-desc"; type="application/json"',
      );
    }
    expect(ROOT_MESSAGE).toMatch(new RegExp(`^${NOT_FOUND.replace('.', '\\.')} .*/docs.*/openapi\\.json`));
  });

  it('gives no Link to other requests, nor names ways in that are not served', () => {
    for (const request of [
      { method: 'POST', path: '/' },
      { method: 'GET', path: '/nope' },
      { method: 'GET', path: '/v1/search' },
    ]) {
      expect(routeNotFoundLinks(request, ROUTES)).toBeUndefined();
    }
    expect(routeNotFoundMessage({ method: 'POST', path: '/' }, ROUTES)).toBe(READ_ONLY_MESSAGE);
    expect(routeNotFoundLinks({ method: 'GET', path: '/' })).toBeUndefined();
    expect(routeNotFoundMessage({ method: 'GET', path: '/' })).toBe(NOT_FOUND);
    expect(routeNotFoundLinks({ method: 'GET', path: '/' }, ['/docs'])).toBe(
      '</docs>; rel="service-doc"; type="text/html"',
    );
  });

  it('never echoes the path', () => {
    expect(get('/v1/title/tt0111161')).not.toContain('tt0111161');
    expect(get('/<script>')).not.toContain('<script>');
  });
});
