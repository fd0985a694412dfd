/** The titles columns a Title is made from, selected from the table aliased `alias`. */
export function titleSelectSql(alias: string): string {
  const a = alias;
  return `${a}.id, ${a}.imdb_id, ${a}.type, ${a}.title, ${a}.original_title, ${a}.year, ${a}.end_year,
    ${a}.runtime_minutes, ${a}.genres, ${a}.content_rating, ${a}.plot, ${a}.languages, ${a}.countries,
    ${a}.directors, ${a}.writers, ${a}.actors, ${a}.awards, ${a}.poster_url, ${a}.box_office,
    ${a}.production, ${a}.total_seasons, ${a}.rating_average::float8 AS rating_average, ${a}.rating_votes`;
}
