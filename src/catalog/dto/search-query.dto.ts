import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, ValidateBy } from 'class-validator';
import { IntegerQueryParam } from '../../common/validation/query-decorators';
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
    description:
      'Search text, 1 to 100 characters (Unicode code points, after percent-decoding). After NFKC ' +
      'normalization and removal of control characters it must hold at least one letter or number ' +
      '(Unicode categories L and N): "™" and "Amélie" are accepted, "&" and "?!" are 400 ' +
      'VALIDATION_ERROR. The first 20 letter-or-number tokens are matched as whole words against title ' +
      'and original_title. The rule has no pattern here (no regular expression reads the same in every ' +
      "validator's dialect); the service's 400 is the truth.",
    example: 'shawshank redemption',
  })
  q!: string;

  /** `q` as tokens and keys, made by its validation (not a query parameter: it has no validator). */
  search!: SearchQuery;

  @IsOptional()
  @IsIn(TITLE_TYPES, { message: `type must be one of ${TITLE_TYPES.join(', ')}` })
  @ApiPropertyOptional({ enum: TITLE_TYPES, enumName: 'TitleType', example: 'movie' })
  type?: TitleType;

  @IntegerQueryParam('year', MIN_YEAR, MAX_YEAR)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_YEAR,
    maximum: MAX_YEAR,
    description: 'Exact start year',
    example: 1994,
  })
  year?: number;
}
