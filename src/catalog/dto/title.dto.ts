import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IMDB_ID_PATTERN, TITLE_TYPES, type Title, type TitleType } from '../title';

/** Lists are null or non-empty, never []. */
const NULLABLE_LIST = { type: 'string', isArray: true, nullable: true, minItems: 1 } as const;
const NULLABLE_TEXT = { type: 'string', nullable: true } as const;
const NULLABLE_INTEGER = { type: 'integer', nullable: true } as const;

@ApiSchema({ name: 'Ratings' })
export class RatingsDto {
  @ApiProperty({ type: 'number', minimum: 0, maximum: 10, example: 9.3 })
  average!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 3000000 })
  votes!: number;
}

/**
 * The Title resource as the OpenAPI document describes it. `implements Title` keeps the two in
 * step: a field added to the interface fails compilation here until it is documented.
 */
@ApiSchema({ name: 'Title' })
export class TitleDto implements Title {
  @ApiProperty({ type: 'integer', description: 'Internal numeric catalog ID', example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', pattern: IMDB_ID_PATTERN.source, example: 'tt0111161' })
  imdb_id!: string;

  @ApiProperty({ enum: TITLE_TYPES, enumName: 'TitleType', example: 'movie' })
  type!: TitleType;

  @ApiProperty({ type: 'string', example: 'The Shawshank Redemption' })
  title!: string;

  @ApiProperty(NULLABLE_TEXT)
  original_title!: string | null;

  @ApiProperty({ ...NULLABLE_INTEGER, description: 'Start year' })
  year!: number | null;

  @ApiProperty(NULLABLE_INTEGER)
  end_year!: number | null;

  @ApiProperty(NULLABLE_INTEGER)
  runtime_minutes!: number | null;

  @ApiProperty(NULLABLE_LIST)
  genres!: string[] | null;

  @ApiProperty(NULLABLE_TEXT)
  content_rating!: string | null;

  @ApiProperty(NULLABLE_TEXT)
  plot!: string | null;

  @ApiProperty(NULLABLE_LIST)
  languages!: string[] | null;

  @ApiProperty(NULLABLE_LIST)
  countries!: string[] | null;

  @ApiProperty(NULLABLE_LIST)
  directors!: string[] | null;

  @ApiProperty(NULLABLE_LIST)
  writers!: string[] | null;

  @ApiProperty(NULLABLE_LIST)
  actors!: string[] | null;

  @ApiProperty({ ...NULLABLE_TEXT, description: 'Free text' })
  awards!: string | null;

  @ApiProperty({ ...NULLABLE_TEXT, format: 'uri' })
  poster_url!: string | null;

  @ApiProperty({ ...NULLABLE_TEXT, description: 'Free text' })
  box_office!: string | null;

  @ApiProperty(NULLABLE_TEXT)
  production!: string | null;

  @ApiProperty({ ...NULLABLE_INTEGER, minimum: 1, description: 'Series types only; otherwise null' })
  total_seasons!: number | null;

  @ApiProperty({ type: RatingsDto, description: '{ average: 0, votes: 0 } for an unrated title' })
  ratings!: RatingsDto;
}
