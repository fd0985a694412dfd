import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { RequestMetaDto } from '../../src/openapi/envelope.dto';
import type { GenreCount } from './genre-count.repository';

@ApiSchema({ name: 'GenreCount' })
export class GenreCountDto implements GenreCount {
  @ApiProperty({ type: 'string', example: 'Drama' })
  genre!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  titles!: number;
}

/** Every genre as one item of `data`, most titles first; no paging (a catalog has few genres). */
@ApiSchema({ name: 'GenreCounts' })
export class GenreCountsDto {
  @ApiProperty({ type: GenreCountDto, isArray: true })
  data!: GenreCountDto[];

  @ApiProperty({ type: RequestMetaDto })
  meta!: RequestMetaDto;
}
