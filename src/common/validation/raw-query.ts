import { ApiError } from '../errors/api-error';
import { quoteName } from './quote-name';

/**
 * Strict query parsing: Express' parser keeps bad escapes and turns repeats into arrays, and the
 * contract makes both a VALIDATION_ERROR.
 */
export function parseRawQuery(url: string): Record<string, string> {
  const query = queryText(url);
  const params: Record<string, string> = Object.create(null);
  if (query === '') return params;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const name = decode(separator === -1 ? pair : pair.slice(0, separator));
    const value = separator === -1 ? '' : decode(pair.slice(separator + 1));
    if (Object.prototype.hasOwnProperty.call(params, name)) {
      throw new ApiError('VALIDATION_ERROR', `The query parameter ${quoteName(name)} may appear only once.`);
    }
    params[name] = value;
  }
  return params;
}

/** A URL's query string as sent, after `?` (empty without one). */
export function queryText(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? '' : url.slice(queryStart + 1);
}

function decode(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'The query string is not valid percent-encoded UTF-8.');
  }
}
