import type { ExecutionContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { ClassConstructor } from 'class-transformer';
import { PageQueryDto } from '../../catalog/dto/page-query.dto';
import { SearchQueryDto } from '../../catalog/dto/search-query.dto';
import { ApiError } from '../errors/api-error';
import { NoQueryDto } from './no-query.dto';
import { parseRawQuery } from './raw-query';
import { ValidatedQuery, validateQuery } from './validated-query.decorator';

const validationMessage = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('VALIDATION_ERROR');
    return (error as ApiError).message;
  }
  throw new Error('expected a VALIDATION_ERROR');
};

describe('parseRawQuery', () => {
  it('decodes names and values strictly, with + as a space', () => {
    expect(parseRawQuery('/v1/search?q=the+office&page=%32')).toEqual({ q: 'the office', page: '2' });
    expect(parseRawQuery('/v1/movies')).toEqual({});
    expect(parseRawQuery('/v1/movies?')).toEqual({});
    expect(parseRawQuery('/v1/movies?flag')).toEqual({ flag: '' });
  });

  it('refuses repeated parameters and broken escapes', () => {
    expect(validationMessage(() => parseRawQuery('/x?page=1&page=1'))).toContain(
      '"page" may appear only once',
    );
    expect(validationMessage(() => parseRawQuery('/x?q=%E0%A4'))).toContain('percent-encoded');
    expect(validationMessage(() => parseRawQuery('/x?q=%zz'))).toContain('percent-encoded');
  });
});

describe('validateQuery', () => {
  it('applies defaults and converts integers', () => {
    expect(validateQuery(PageQueryDto, {})).toMatchObject({ page: 1, limit: 20 });
    expect(validateQuery(PageQueryDto, { page: '007', limit: '+5' })).toMatchObject({ page: 7, limit: 5 });
  });

  it.each(['abc', '1.5', '1.0', '1e3', '0x10', '', ' 1', '1 ', '0', '-1', '1000001', '99999999999999999999'])(
    'refuses page=%j',
    (page) => {
      expect(validationMessage(() => validateQuery(PageQueryDto, { page }))).toBe(
        'page must be an integer from 1 to 1000000.',
      );
    },
  );

  it('refuses unknown names, including prototype keys', () => {
    expect(validationMessage(() => validateQuery(PageQueryDto, { cursor: 'x' }))).toBe(
      'Unknown query parameter "cursor": use "page" (there are no cursors: pages are numbered). Accepted: page, limit.',
    );
    expect(validationMessage(() => validateQuery(SearchQueryDto, { q: 'x', per_page: '5' }))).toBe(
      'Unknown query parameter "per_page": use "limit" (results per page; meta.per_page echoes it). Accepted: q, type, year, page, limit.',
    );
    const raw = parseRawQuery('/x?__proto__=1');
    expect(validationMessage(() => validateQuery(PageQueryDto, raw))).toContain('__proto__');
  });

  it('takes no parameter for a DTO that declares none, and refuses any', () => {
    expect(validateQuery(NoQueryDto, {})).toBeInstanceOf(NoQueryDto);
    expect(validationMessage(() => validateQuery(NoQueryDto, { page: '1' }))).toBe(
      'Unknown query parameter "page": this route takes no query parameters.',
    );
    expect(validationMessage(() => validateQuery(NoQueryDto, parseRawQuery('/x?__proto__=1')))).toContain(
      '__proto__',
    );
  });

  it('validates the search text and filters', () => {
    expect(validateQuery(SearchQueryDto, { q: 'the', type: 'tv_series', year: '1999' })).toMatchObject({
      q: 'the',
      type: 'tv_series',
      year: 1999,
      page: 1,
      limit: 20,
    });
    expect(validationMessage(() => validateQuery(SearchQueryDto, {}))).toBe('q is required.');
    expect(validationMessage(() => validateQuery(SearchQueryDto, { q: '?!' }))).toContain('letter or number');
    expect(validationMessage(() => validateQuery(SearchQueryDto, { q: 'x'.repeat(101) }))).toContain(
      '1 to 100',
    );
    expect(validateQuery(SearchQueryDto, { q: '𝒳'.repeat(100) }).q).toHaveLength(200);
    expect(validationMessage(() => validateQuery(SearchQueryDto, { q: 'a', type: 'episode' }))).toContain(
      'type must be',
    );
    expect(validationMessage(() => validateQuery(SearchQueryDto, { q: 'a', year: '1799' }))).toContain(
      '1800 to 2100',
    );
  });
});

describe('@ValidatedQuery', () => {
  /** The decorator's factory, as Nest calls it for a request to `url`. */
  const validated = (dto: ClassConstructor<object>, url: string): unknown => {
    class Probe {
      handler(@ValidatedQuery(dto) _query: object) {}
    }
    const [{ factory, data }] = Object.values(
      Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handler') as Record<
        string,
        { factory: (data: unknown, ctx: ExecutionContext) => unknown; data: unknown }
      >,
    );
    return factory(data, new ExecutionContextHost([{ originalUrl: url }]));
  };

  it('answers a query text validated before with the same frozen DTO, and refuses an invalid one every time', () => {
    const first = validated(SearchQueryDto, '/v1/search?q=love&page=2');
    expect(first).toMatchObject({ q: 'love', page: 2, limit: 20 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(validated(SearchQueryDto, '/v1/search?q=love&page=2')).toBe(first);
    expect(validated(SearchQueryDto, '/other?q=love&page=2')).toBe(first);
    expect(validated(SearchQueryDto, '/v1/search?page=2&q=love')).not.toBe(first);
    for (let i = 0; i < 2; i++) {
      expect(validationMessage(() => validated(SearchQueryDto, '/v1/search?q=love&page=0'))).toBe(
        'page must be an integer from 1 to 1000000.',
      );
    }
  });
});
