import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiQuery } from '@nestjs/swagger';
import {
  ApiTag,
  Conditional,
  type ConditionalReply,
  Metered,
  RequestId,
  ValidatedQuery,
  listEnvelopeJson,
} from '../../src/route-kit';
import { GenreCountsDto } from './genre-count.dto';
import { GenreCountRepository } from './genre-count.repository';
import { GenresQueryDto } from './genres-query.dto';

/** A protected read route as docs/extending.md describes it: the access path is the service's. */
@Controller('v1')
@ApiTag('genres', 'Genres of the catalog and their title counts (API key required)')
export class GenresController {
  constructor(private readonly genres: GenreCountRepository) {}

  @Get('genres')
  @Metered()
  @ApiOperation({
    summary: 'Genres and how many titles carry each, most titles first',
    description:
      'Every genre of the live catalog with its number of titles; min_titles leaves out rarer ones.',
  })
  @ApiQuery({ type: GenresQueryDto })
  @Metered.ok(GenreCountsDto, 'Every genre with its title count', { conditional: true })
  async list(
    @ValidatedQuery(GenresQueryDto) query: GenresQueryDto,
    @RequestId() requestId: string,
    @Conditional() reply: ConditionalReply,
  ) {
    return reply.json(await this.genres.count(query.min_titles), (counts) =>
      listEnvelopeJson(counts, requestId),
    );
  }
}
