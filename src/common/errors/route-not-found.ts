import { ERROR_CATALOGUE } from './error-catalogue';

const NOT_FOUND = ERROR_CATALOGUE.ROUTE_NOT_FOUND.message;

/** The root says what the service is and where to start: it has no route of its own. */
export const ROOT_MESSAGE = `${NOT_FOUND} This is the catalog API: its routes are described at /openapi.json, its status at /health.`;

/** Every route is lowercase (the router is case-sensitive); a path with capitals is a likely typo. */
export const WRONG_CASE_MESSAGE = `${NOT_FOUND} Paths are case-sensitive and lowercase: /v1/search, not /V1/Search.`;

/**
 * The message of a 404 ROUTE_NOT_FOUND for a request path: a pointer to /openapi.json and /health
 * at the root, a case hint for a path with capitals, the catalogue's message otherwise. The path
 * itself is never echoed.
 */
export function routeNotFoundMessage(path: string | undefined): string {
  if (path === '/' || path === '') return ROOT_MESSAGE;
  if (path !== undefined && path !== path.toLowerCase()) return WRONG_CASE_MESSAGE;
  return NOT_FOUND;
}
