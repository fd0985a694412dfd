import { IsDefined, IsIn, IsOptional, IsString, ValidateBy } from 'class-validator';
import { IntegerQueryParam } from '../../common/validation/query-decorators';
import { MAX_QUERY_LENGTH, hasLetterOrNumber, normalizeSearchText } from '../search/search-text';
import { TITLE_TYPES, type TitleType } from '../title';
import { PageQueryDto } from './page-query.dto';

/** `q`: 1 to 100 code points as received, holding a letter or number after normalization. */
function IsSearchText(): PropertyDecorator {
  return ValidateBy({
    name: 'isSearchText',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        const length = [...value].length;
        return length >= 1 && length <= MAX_QUERY_LENGTH && hasLetterOrNumber(normalizeSearchText(value));
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
  q!: string;

  @IsOptional()
  @IsIn(TITLE_TYPES, { message: `type must be one of ${TITLE_TYPES.join(', ')}` })
  type?: TitleType;

  @IntegerQueryParam('year', 1800, 2100)
  year?: number;
}
