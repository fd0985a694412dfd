import { Module } from '@nestjs/common';
import { GenreCountRepository } from './genre-count.repository';
import { GenresController } from './genres.controller';

/** The example of docs/extending.md: `GET /v1/genres`, titles counted per genre. */
@Module({
  controllers: [GenresController],
  providers: [GenreCountRepository],
})
export class GenresModule {}
