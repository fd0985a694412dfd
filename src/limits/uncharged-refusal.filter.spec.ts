import { FILTER_CATCH_EXCEPTIONS } from '@nestjs/common/constants';
import { attachAuthenticatedKey } from '../auth/authenticated-request';
import { LIMITS } from '../common/access/limit-table';
import { ApiError } from '../common/errors/api-error';
import type { AllowanceStorage } from './allowance.storage';
import { UnchargedRefusalFilter } from './uncharged-refusal.filter';
import { fakeHttpHost } from '../../test/support/fake-http-host';

function fakeHost() {
  const fake = fakeHttpHost();
  attachAuthenticatedKey(fake.req, { id: 'k1', rpm: 10, monthlyQuota: 100 });
  return fake;
}

describe('UnchargedRefusalFilter', () => {
  const refund = jest.fn();
  const filter = new UnchargedRefusalFilter({ refund } as unknown as AllowanceStorage, LIMITS);

  beforeEach(() => refund.mockClear());

  it('gives each quota back to a refusal marked uncharged, then answers it as the envelope filter does', () => {
    const { host, res, headers } = fakeHost();
    filter.catch(ApiError.uncharged('INTERNAL_ERROR', 'Too many searches.', { 'Retry-After': '1' }), host);
    expect(refund.mock.calls).toEqual([['month:k1']]);
    expect(res.statusCode).toBe(500);
    expect(headers.get('Retry-After')).toBe('1');
    expect(res.body).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'Too many searches.', request_id: 'req-1' },
    });
  });

  it('gives nothing back for any other error', () => {
    const { host, res } = fakeHost();
    filter.catch(new ApiError('RATE_LIMITED'), host);
    expect(refund).not.toHaveBeenCalled();
    expect(res.statusCode).toBe(429);
  });

  it('catches only ApiError: everything else goes on to the global filter', () => {
    expect(Reflect.getMetadata(FILTER_CATCH_EXCEPTIONS, UnchargedRefusalFilter)).toEqual([ApiError]);
  });
});
