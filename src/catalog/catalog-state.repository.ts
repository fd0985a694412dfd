import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { CatalogStateEntity } from './catalog-state.entity';

/** What /health reports about the live catalog. */
export interface CatalogState {
  catalogVersion: string | null;
  titleCount: number;
  ingestedAt: Date | null;
  enrichmentComplete: boolean;
}

@Injectable()
export class CatalogStateRepository {
  constructor(
    @InjectRepository(CatalogStateEntity) private readonly states: Repository<CatalogStateEntity>,
  ) {}

  async current(): Promise<CatalogState> {
    const state = await this.states.findOneByOrFail({ id: 1 });
    return {
      catalogVersion: state.catalogVersion,
      titleCount: state.titleCount,
      ingestedAt: state.ingestedAt,
      enrichmentComplete: state.enrichmentComplete,
    };
  }
}
