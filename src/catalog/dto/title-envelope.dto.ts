import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_PER_PAGE } from '../../common/envelope';
import { ItemEnvelopeDto, PageMetaDto } from '../../openapi/envelope.dto';
import { TitleDto } from './title.dto';

/** The page envelope of search, movies and series. */
@ApiSchema({ name: 'TitlePage' })
export class TitlePageDto {
  @ApiProperty({ type: TitleDto, isArray: true, maxItems: MAX_PER_PAGE })
  data!: TitleDto[];

  @ApiProperty({ type: PageMetaDto })
  meta!: PageMetaDto;
}

/** The single-title envelope: `data` holds exactly one Title. */
@ApiSchema({ name: 'TitleItem' })
export class TitleItemDto extends ItemEnvelopeDto(TitleDto) {}
