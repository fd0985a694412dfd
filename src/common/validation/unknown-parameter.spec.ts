import { unknownParameterMessage } from './unknown-parameter';

const PAGING = new Set(['page', 'limit']);
const SEARCH = new Set(['q', 'type', 'year', 'page', 'limit']);

describe('unknownParameterMessage', () => {
  it('names the parameter to use for a name other APIs use, and lists what the route takes', () => {
    expect(unknownParameterMessage('per_page', PAGING)).toBe(
      'Unknown query parameter "per_page": use "limit" (results per page; meta.per_page echoes it). Accepted: page, limit.',
    );
    expect(unknownParameterMessage('page-size', PAGING)).toContain('use "limit"');
    expect(unknownParameterMessage('offset', PAGING)).toContain('use "page"');
    expect(unknownParameterMessage('cursor', PAGING)).toContain('there are no cursors');
    expect(unknownParameterMessage('query', SEARCH)).toContain('use "q"');
  });

  it('suggests only a parameter the route takes', () => {
    expect(unknownParameterMessage('query', PAGING)).toBe(
      'Unknown query parameter "query". Accepted: page, limit.',
    );
  });

  it('says names are lowercase when one differs only in case', () => {
    expect(unknownParameterMessage('Limit', SEARCH)).toBe(
      'Unknown query parameter "Limit": names are lowercase, use "limit". Accepted: q, type, year, page, limit.',
    );
  });

  it('says a route takes none when it takes none', () => {
    expect(unknownParameterMessage('page', new Set())).toBe(
      'Unknown query parameter "page": this route takes no query parameters.',
    );
  });

  it('reads no inherited property as a suggestion', () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect(unknownParameterMessage(name, PAGING)).toBe(
        `Unknown query parameter "${name}". Accepted: page, limit.`,
      );
    }
  });
});
