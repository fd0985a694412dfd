import { BadRequestException, NotFoundException } from '@nestjs/common';
import { fakeHttpHost } from '../../../test/support/fake-http-host';
import { ApiError } from './api-error';
import { AllExceptionsFilter } from './all-exceptions.filter';

const fakeHost = () => fakeHttpHost([['X-RateLimit-Limit', '10']]);

describe('AllExceptionsFilter', () => {
  const filter = new AllExceptionsFilter();

  it.each([
    [new ApiError('TITLE_NOT_FOUND'), 404, 'TITLE_NOT_FOUND'],
    [new NotFoundException('Cannot GET /x'), 404, 'ROUTE_NOT_FOUND'],
    [Object.assign(new URIError('URI malformed'), { status: 400 }), 400, 'VALIDATION_ERROR'],
    [new BadRequestException(), 400, 'VALIDATION_ERROR'],
    [new Error('connection refused at 10.0.0.1'), 500, 'INTERNAL_ERROR'],
    ['a thrown string', 500, 'INTERNAL_ERROR'],
  ])('maps %p to %i %s without leaking details', (exception, status, code) => {
    const { host, res } = fakeHost();
    jest.spyOn(filter['logger'], 'error').mockImplementation(() => undefined);
    filter.catch(exception, host);
    expect(res.statusCode).toBe(status);
    expect(res.body).toEqual({
      error: { code, message: expect.any(String), request_id: 'req-1' },
    });
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.1');
  });

  it('logs an unexpected 500 at error, and an expected one (the drain refusing /health) not at all', () => {
    const logged = jest.spyOn(filter['logger'], 'error').mockImplementation(() => undefined);
    logged.mockClear();
    filter.catch(new Error('connection refused'), fakeHost().host);
    expect(logged).toHaveBeenCalledTimes(1);
    const { host, res } = fakeHost();
    filter.catch(ApiError.expected('INTERNAL_ERROR', 'The service is shutting down.'), host);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'The service is shutting down.', request_id: 'req-1' },
    });
  });

  it('writes no header: what the guards set before the error stays as they set it', () => {
    const { host, headers } = fakeHost();
    filter.catch(new ApiError('RATE_LIMITED'), host);
    expect(headers.get('X-RateLimit-Limit')).toBe('10');
    expect(headers.get('X-Request-Id')).toBe('req-1');
    expect([...headers.keys()].sort()).toEqual(['X-RateLimit-Limit', 'X-Request-Id']);
  });
});
