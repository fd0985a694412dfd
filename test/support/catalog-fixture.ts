import type { TitleRecord } from '../../src/catalog/title';
import { titleRecord } from './titles';

/** A small catalog that exercises ordering, folding, types and nullable fields. */
export const FIXTURE_TITLES: TitleRecord[] = [
  titleRecord({
    imdbId: 'tt0111161', title: 'The Shawshank Redemption', year: 1994, runtimeMinutes: 142,
    genres: ['Drama'], ratingAverage: 9.3, ratingVotes: 3000, enriched: true, contentRating: 'R',
    plot: 'Two prisoners bond over years.', languages: ['English'], countries: ['United States'],
    directors: ['Frank Darabont'], writers: ['Stephen King', 'Frank Darabont'], actors: ['Tim Robbins'],
    awards: 'Nominated for 7 Oscars.', posterUrl: 'https://example.com/p.jpg', boxOffice: '$28,767,189',
    production: 'Castle Rock', totalSeasons: 3,
  }),
  titleRecord({ imdbId: 'tt0068646', title: 'The Godfather', year: 1972, ratingAverage: 9.2, ratingVotes: 2000 }),
  titleRecord({
    imdbId: 'tt0211915', title: 'Amélie', originalTitle: "Le fabuleux destin d'Amélie Poulain", year: 2001,
    ratingAverage: 8.3, ratingVotes: 800, genres: [],
  }),
  titleRecord({
    imdbId: 'tt0903747', type: 'tv_series', title: 'Breaking Bad', year: 2008, endYear: 2013, totalSeasons: 5,
    ratingAverage: 9.5, ratingVotes: 2500,
  }),
  titleRecord({ imdbId: 'tt0386676', type: 'tv_series', title: 'The Office', year: 2005, ratingVotes: 900, ratingAverage: 9 }),
  titleRecord({ imdbId: 'tt0290978', type: 'tv_series', title: 'The Office', year: 2001, ratingVotes: 400, ratingAverage: 8.5 }),
  titleRecord({ imdbId: 'tt7366338', type: 'tv_mini_series', title: 'Chernobyl', year: 2019, ratingVotes: 700, ratingAverage: 9.3 }),
  titleRecord({ imdbId: 'tt1049413', title: 'Up', year: 2009, ratingVotes: 1000, ratingAverage: 8.3 }),
  titleRecord({ imdbId: 'tt0114369', title: 'Se7en', year: 1995, ratingVotes: 1500, ratingAverage: 8.6 }),
  titleRecord({ imdbId: 'tt0063350', type: 'tv_movie', title: 'Night of the Living Dead', year: 1968, ratingVotes: 100, ratingAverage: 7.8 }),
  titleRecord({ imdbId: 'tt0088178', type: 'tv_special', title: 'Live Aid', year: 1985, ratingVotes: 50, ratingAverage: 8.9 }),
  titleRecord({ imdbId: 'tt9000001', title: 'The', year: 2020, ratingVotes: 5, ratingAverage: 5 }),
  titleRecord({ imdbId: 'tt9000002', title: 'Straße der Liebe', originalTitle: null, year: 1958 }),
  titleRecord({ imdbId: 'tt9000003', title: 'Twin Title', year: 2000, ratingVotes: 10 }),
  titleRecord({ imdbId: 'tt9000004', title: 'Twin Title', year: 2000, ratingVotes: 10 }),
];

export const MOVIE_COUNT = FIXTURE_TITLES.filter((t) => t.type === 'movie' || t.type === 'tv_movie').length;
export const SERIES_COUNT = FIXTURE_TITLES.length - MOVIE_COUNT;
