import { quoteName } from './quote-name';

/**
 * Names other APIs (and this one's own `meta`) use for a parameter this service spells otherwise,
 * with what to send instead. A suggestion is made only where the route takes the parameter.
 */
const SPELLED_HERE_AS: ReadonlyMap<string, { use: string; why?: string }> = new Map(
  Object.entries({
    per_page: { use: 'limit', why: 'results per page; meta.per_page echoes it' },
    perpage: { use: 'limit' },
    page_size: { use: 'limit' },
    pagesize: { use: 'limit' },
    size: { use: 'limit' },
    count: { use: 'limit' },
    max_results: { use: 'limit' },
    offset: { use: 'page', why: 'pages are one-based: page = offset / limit + 1' },
    skip: { use: 'page', why: 'pages are one-based: page = skip / limit + 1' },
    cursor: { use: 'page', why: 'there are no cursors: pages are numbered' },
    page_number: { use: 'page' },
    pagenumber: { use: 'page' },
    p: { use: 'page' },
    query: { use: 'q' },
    search: { use: 'q' },
    term: { use: 'q' },
    text: { use: 'q' },
    title: { use: 'q' },
    keyword: { use: 'q' },
    keywords: { use: 'q' },
    title_type: { use: 'type' },
    titletype: { use: 'type' },
    kind: { use: 'type' },
    start_year: { use: 'year' },
    startyear: { use: 'year' },
    release_year: { use: 'year' },
  }),
);

/** The VALIDATION_ERROR message for a parameter the route does not take, with a suggestion. */
export function unknownParameterMessage(name: string, accepted: ReadonlySet<string>): string {
  const refused = `Unknown query parameter ${quoteName(name)}`;
  if (accepted.size === 0) return `${refused}: this route takes no query parameters.`;
  const list = `Accepted: ${[...accepted].join(', ')}.`;
  const folded = name.toLowerCase();
  if (accepted.has(folded)) return `${refused}: names are lowercase, use "${folded}". ${list}`;
  const suggestion = SPELLED_HERE_AS.get(folded.replace(/-/g, '_'));
  if (suggestion === undefined || !accepted.has(suggestion.use)) return `${refused}. ${list}`;
  const why = suggestion.why === undefined ? '' : ` (${suggestion.why})`;
  return `${refused}: use "${suggestion.use}"${why}. ${list}`;
}
