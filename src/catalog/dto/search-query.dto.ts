import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, ValidateBy } from 'class-validator';
import { IntegerQueryParam } from '../../common/validation/query-decorators';
import { LETTER_OR_NUMBER_PATTERN } from '../search/letter-or-number-pattern';
import { MAX_QUERY_LENGTH, type SearchQuery, searchQuery } from '../search/search-text';
import { TITLE_TYPES, type TitleType } from '../title';
import { PageQueryDto } from './page-query.dto';

export const MIN_YEAR = 1800;
export const MAX_YEAR = 2100;

/** `q` is normalized and tokenized once, here; the service reads the result as `search`. */
function IsSearchText(): PropertyDecorator {
  return ValidateBy({
    name: 'isSearchText',
    validator: {
      validate: (value: unknown, args) => {
        if (typeof value !== 'string') return false;
        const length = [...value].length;
        if (length < 1 || length > MAX_QUERY_LENGTH) return false;
        const search = searchQuery(value);
        (args!.object as SearchQueryDto).search = search;
        return search.tokens.length > 0;
      },
      defaultMessage: () =>
        `q must be 1 to ${MAX_QUERY_LENGTH} characters and contain at least one letter or number`,
    },
  });
}

export class SearchQueryDto extends PageQueryDto {
  @IsDefined({ message: 'q is required' })
  @IsString({ message: 'q must be a string' })
  @IsSearchText()
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: MAX_QUERY_LENGTH,
    pattern: LETTER_OR_NUMBER_PATTERN,
    description:
      'Search text, 1 to 100 characters (code points). After NFKC normalization and removal of control ' +
      'characters it must hold a letter or number (the pattern says so of the text as sent); the first ' +
      '20 letter-or-number tokens are matched as whole words against title and original_title.',
    // No example: Spectral checks examples against the pattern compiled without the u flag, where
    // \p{L} means "p{L}", and would refuse any text without a "p" (the unit test checks the pattern).
  })
  q!: string;

  /** `q` as tokens and keys, made by its validation (not a query parameter: it has no validator). */
  search!: SearchQuery;

  @IsOptional()
  @IsIn(TITLE_TYPES, { message: `type must be one of ${TITLE_TYPES.join(', ')}` })
  @ApiPropertyOptional({ enum: TITLE_TYPES, enumName: 'TitleType' })
  type?: TitleType;

  @IntegerQueryParam('year', MIN_YEAR, MAX_YEAR)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_YEAR,
    maximum: MAX_YEAR,
    description: 'Exact start year',
  })
  year?: number;
}
