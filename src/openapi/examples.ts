import type { Title } from '../catalog/title';

/**
 * Example values of the OpenAPI document: what generators, fuzzers and the reference page show and
 * send. Each must satisfy its schema (Spectral's oas3-valid-*-example rules check them).
 */

/** A request id as the service makes one (a UUID), echoed in the header and the body. */
export const REQUEST_ID_EXAMPLE = '3f6c0b8e-5d2a-4c61-9a57-0f4be1d0c2aa';

/** A strong entity tag as the service writes it: 27 characters of [A-Za-z0-9_-] between quotes. */
export const ETAG_EXAMPLE = '"WLZWsng2KpFlkWGBo4e0SGe8p47"';

export const MOVIE_EXAMPLE: Title = {
  id: 1,
  imdb_id: 'tt0111161',
  type: 'movie',
  title: 'The Shawshank Redemption',
  original_title: 'The Shawshank Redemption',
  year: 1994,
  end_year: null,
  runtime_minutes: 142,
  genres: ['Drama'],
  content_rating: 'R',
  plot: 'Two imprisoned men bond over a number of years, finding solace and eventual redemption through acts of common decency.',
  languages: ['English'],
  countries: ['United States'],
  directors: ['Frank Darabont'],
  writers: ['Stephen King', 'Frank Darabont'],
  actors: ['Tim Robbins', 'Morgan Freeman', 'Bob Gunton'],
  awards: 'Nominated for 7 Oscars. 21 wins & 43 nominations total',
  poster_url:
    'https://m.media-amazon.com/images/M/MV5BMDAyY2FhYjctNDc5OS00MDNlLThiMGUtY2UxYWVkNGY2ZjljXkEyXkFqcGc@._V1_SX300.jpg',
  box_office: '$28,767,189',
  production: null,
  total_seasons: null,
  ratings: { average: 9.3, votes: 3000000 },
};

export const SERIES_EXAMPLE: Title = {
  id: 2,
  imdb_id: 'tt0386676',
  type: 'tv_series',
  title: 'The Office',
  original_title: 'The Office',
  year: 2005,
  end_year: 2013,
  runtime_minutes: 22,
  genres: ['Comedy'],
  content_rating: 'TV-14',
  plot: 'A mockumentary on a group of typical office workers, where the workday consists of ego clashes, inappropriate behavior and tedium.',
  languages: ['English', 'Spanish'],
  countries: ['United States'],
  directors: null,
  writers: ['Greg Daniels', 'Ricky Gervais', 'Stephen Merchant'],
  actors: ['Steve Carell', 'Jenna Fischer', 'John Krasinski'],
  awards: 'Won 5 Primetime Emmys. 42 wins & 207 nominations total',
  poster_url: null,
  box_office: null,
  production: null,
  total_seasons: 9,
  ratings: { average: 9, votes: 780000 },
};

/** A page of titles as search, movies and series answer it. */
export function titlePageExample(titles: Title[], totalResults: number) {
  const perPage = 20;
  return {
    data: titles,
    meta: {
      request_id: REQUEST_ID_EXAMPLE,
      page: 1,
      per_page: perPage,
      total_results: totalResults,
      total_pages: Math.ceil(totalResults / perPage),
    },
  };
}

/** One title as the lookup answers it. */
export const TITLE_ITEM_EXAMPLE = { data: [MOVIE_EXAMPLE], meta: { request_id: REQUEST_ID_EXAMPLE } };
