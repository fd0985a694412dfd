import { ERROR_CATALOGUE } from './error-catalogue';

const NOT_FOUND = ERROR_CATALOGUE.ROUTE_NOT_FOUND.message;

/** Every route is lowercase (the router is case-sensitive); a path with capitals is a likely typo. */
export const WRONG_CASE_MESSAGE = `${NOT_FOUND} Paths are case-sensitive and lowercase: /v1/search, not /V1/Search.`;

/** The service is read-only: any other method is an unknown route, whatever the path. */
export const READ_ONLY_MESSAGE = `${NOT_FOUND} The API is read-only: every route answers GET and HEAD only.`;

/** The two ways in, by RFC 8631 link relation: the reference to read, and the document tools read. */
const WAYS_IN = [
  { path: '/docs', rel: 'service-doc', type: 'text/html' },
  { path: '/openapi.json', rel: 'service-desc', type: 'application/json' },
] as const;

/** `/` serves nothing (it is no route of the API): its 404 names the ways in. */
export const ROOT_MESSAGE = `${NOT_FOUND} Nothing is served at /: the API's reference is at /docs, and the same as an OpenAPI document at /openapi.json.`;

/** Where people look for an API's reference, and where this one keeps it. */
const REFERENCE_ALIASES: Readonly<Record<string, string>> = {
  '/api': '/docs',
  '/api-docs': '/docs',
  '/doc': '/docs',
  '/documentation': '/docs',
  '/redoc': '/docs',
  '/reference': '/docs',
  '/swagger': '/docs',
  '/swagger-ui': '/docs',
  '/swagger-ui.html': '/docs',
  '/api-docs.json': '/openapi.json',
  '/openapi': '/openapi.json',
  '/openapi.yaml': '/openapi.json',
  '/openapi.yml': '/openapi.json',
  '/swagger.json': '/openapi.json',
};

/** Hints are looked for only in paths this short: a 404 flood costs no more than the plain message. */
const MAX_HINTED_PATH_LENGTH = 200;
const MAX_HINTED_SEGMENTS = 8;
const VERSION_SEGMENT = /^v[0-9]+$/;

/**
 * The ROUTE_NOT_FOUND message, naming the closest route when there is one. Never echo the path:
 * hints name routes as the reference writes them (`/v1/titles/{imdb_id}`).
 */
export function routeNotFoundMessage(
  request: { method?: string; path?: string },
  routes: readonly string[] = [],
): string {
  const { method = 'GET', path } = request;
  if (method !== 'GET' && method !== 'HEAD') {
    const route = path === undefined ? undefined : routes.find((template) => matches(template, path));
    return route === undefined
      ? READ_ONLY_MESSAGE
      : `${NOT_FOUND} ${described(route)} answers GET and HEAD only: the API is read-only.`;
  }
  if (path === '/' && waysIn(routes).length === WAYS_IN.length) return ROOT_MESSAGE;
  const wrongCase = path !== undefined && path !== path.toLowerCase();
  const hint = path === undefined ? undefined : closestRoute(path.toLowerCase(), routes);
  if (wrongCase)
    return hint === undefined ? WRONG_CASE_MESSAGE : `${WRONG_CASE_MESSAGE} Did you mean ${hint}?`;
  if (hint !== undefined) return `${NOT_FOUND} Did you mean ${hint}?`;
  const listed = ['/docs', '/openapi.json'].filter((route) => routes.includes(route));
  return listed.length === 0 ? NOT_FOUND : `${NOT_FOUND} The routes are listed at ${listed.join(' and ')}.`;
}

/**
 * The `Link` header of a GET or HEAD of `/` (RFC 8288), naming the ways in its message names with
 * their RFC 8631 relations; undefined for any other request, whose 404 carries no `Link`.
 */
export function routeNotFoundLinks(
  request: { method?: string; path?: string },
  routes: readonly string[] = [],
): string | undefined {
  const { method = 'GET', path } = request;
  if (path !== '/' || (method !== 'GET' && method !== 'HEAD')) return undefined;
  const links = waysIn(routes).map(({ path, rel, type }) => `<${path}>; rel="${rel}"; type="${type}"`);
  return links.length === 0 ? undefined : links.join(', ');
}

/** The ways in that are served. */
function waysIn(routes: readonly string[]) {
  return WAYS_IN.filter(({ path }) => routes.includes(path));
}

/** The route `path` was most likely meant for, as the reference writes it, if one is close. */
function closestRoute(path: string, routes: readonly string[]): string | undefined {
  if (path.length > MAX_HINTED_PATH_LENGTH) return undefined;
  const alias = REFERENCE_ALIASES[path.replace(/(.)\/$/, '$1')];
  if (alias !== undefined && routes.includes(alias)) return alias;
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0 || segments.length > MAX_HINTED_SEGMENTS) return undefined;
  const versions = [
    ...new Set(routes.map((route) => route.split('/')[1]).filter((s) => VERSION_SEGMENT.test(s))),
  ];
  const unversioned = VERSION_SEGMENT.test(segments[0]) ? segments.slice(1) : segments;
  const candidates = [unversioned, ...versions.map((version) => [version, ...unversioned])].flatMap(
    numberVariants,
  );
  for (const candidate of candidates) {
    const route = routes.find((template) => template !== '/' && closeTo(template, candidate));
    if (route !== undefined) return described(route);
  }
  return undefined;
}

/** The segments as sent, then with one segment's number changed (`title` → `titles`, `movies` → `movie`). */
function numberVariants(segments: string[]): string[][] {
  const variants = [segments];
  segments.forEach((segment, i) => {
    const others = [`${segment}s`, ...(segment.endsWith('s') ? [segment.slice(0, -1)] : [])];
    if (segment.endsWith('es')) others.push(segment.slice(0, -2));
    for (const other of others) variants.push([...segments.slice(0, i), other, ...segments.slice(i + 1)]);
  });
  return variants;
}

/**
 * Whether the template is the route these segments were meant for: they match it, or they lack only
 * its last parameter (`/v1/titles`), or they add segments after it (`/v1/movies/2`).
 */
function closeTo(template: string, segments: string[]): boolean {
  const parts = template.split('/').filter(Boolean);
  if (segments.length === parts.length - 1 && parts[parts.length - 1].startsWith(':')) {
    return segmentsMatch(parts.slice(0, -1), segments);
  }
  if (segments.length > parts.length) return segmentsMatch(parts, segments.slice(0, parts.length));
  return segments.length === parts.length && segmentsMatch(parts, segments);
}

function matches(template: string, path: string): boolean {
  const parts = template.split('/').filter(Boolean);
  const segments = path.split('/').filter(Boolean);
  return segments.length === parts.length && segmentsMatch(parts, segments);
}

function segmentsMatch(parts: string[], segments: string[]): boolean {
  return parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]));
}

/** `/v1/titles/:imdb_id` as the reference writes it: `/v1/titles/{imdb_id}`. */
function described(template: string): string {
  return template.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
