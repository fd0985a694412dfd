import type { Request } from 'express';

/** The route template as the API description writes it: `/v1/titles/:imdb_id` → `/v1/titles/{imdb_id}`. */
export function routeTemplate(req: Request): string | undefined {
  const path: unknown = req.route?.path;
  return typeof path === 'string' ? path.replace(/:([A-Za-z0-9_]+)/g, '{$1}') : undefined;
}
