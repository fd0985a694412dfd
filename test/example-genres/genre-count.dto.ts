import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../src/route-kit';
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
export class GenreCountsDto extends ListEnvelopeDto(GenreCountDto) {}
