import type { ServerResponse } from 'node:http';
import { recordResponseError } from '../common/errors/response-error-code';
import { errorCodeLabel } from './error-code-label';

const response = (statusCode: number) => ({ statusCode }) as ServerResponse;

describe('errorCodeLabel', () => {
  it('prefers the code the exception filter recorded', () => {
    const res = response(401);
    recordResponseError(res, 'INVALID_API_KEY');
    expect(errorCodeLabel(res, true)).toBe('INVALID_API_KEY');
  });

  it.each([
    [400, true, 'VALIDATION_ERROR'],
    [403, true, 'API_KEY_DISABLED'],
    [404, true, 'TITLE_NOT_FOUND'],
    [404, false, 'ROUTE_NOT_FOUND'],
    [500, false, 'INTERNAL_ERROR'],
    [401, true, 'MISSING_API_KEY|INVALID_API_KEY'],
    [429, true, 'RATE_LIMITED|MONTHLY_QUOTA_EXCEEDED'],
    [418, true, 'UNKNOWN'],
  ])('otherwise derives %i (route matched: %p) as %s from the error catalogue', (status, matched, label) => {
    expect(errorCodeLabel(response(status), matched)).toBe(label);
  });
});
