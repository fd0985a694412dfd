import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { IMDB_ID_PATTERN } from './title';

/** The `{imdb_id}` path parameter: `tt` and ASCII digits, nothing else. */
@Injectable()
export class ImdbIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!IMDB_ID_PATTERN.test(value)) {
      throw new ApiError('VALIDATION_ERROR', 'imdb_id must match the pattern ^tt\\d+$.');
    }
    return value;
  }
}
