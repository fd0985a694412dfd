import { ERROR_CATALOGUE } from './error-catalogue';
import { ROOT_MESSAGE, WRONG_CASE_MESSAGE, routeNotFoundMessage } from './route-not-found';

describe('routeNotFoundMessage', () => {
  it.each([
    ['/', ROOT_MESSAGE],
    ['/V1/Search', WRONG_CASE_MESSAGE],
    ['/v1/MOVIES', WRONG_CASE_MESSAGE],
    ['/v1/nothing', ERROR_CATALOGUE.ROUTE_NOT_FOUND.message],
    ['/metrics', ERROR_CATALOGUE.ROUTE_NOT_FOUND.message],
    [undefined, ERROR_CATALOGUE.ROUTE_NOT_FOUND.message],
  ])('answers %p with its message', (path, message) => {
    expect(routeNotFoundMessage(path)).toBe(message);
  });

  it('points to the description and the status from the root', () => {
    expect(ROOT_MESSAGE).toContain('/openapi.json');
    expect(ROOT_MESSAGE).toContain('/health');
  });
});
