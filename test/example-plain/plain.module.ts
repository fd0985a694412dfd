import { BadRequestException, Controller, Get, Module, Param, Query } from '@nestjs/common';
import { ApiSchema } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { ListEnvelopeDto, Metered, RequestId, listEnvelopeJson } from '../../src/route-kit';

/** A query DTO as Nest's documentation writes one: class-validator decorators. */
export class RangeQuery {
  @IsOptional()
  @Matches(/^[0-9]{1,4}$/, { message: 'from must be 1 to 4 digits' })
  from?: string;
}

/**
 * A route written as plain NestJS, with no decorator of the route kit: the service gives it the
 * contract by default (docs/extending.md, What a route gets by default).
 */
@Controller('v1/plain')
export class PlainController {
  @Get()
  list(@Query('genre') genre?: string): string[] {
    return genre === undefined ? ['one', 'two'] : [genre];
  }

  @Get('range')
  range(@Query() query: RangeQuery): RangeQuery {
    return query;
  }

  @Get('text')
  text(): string {
    return 'a string';
  }

  @Get('item/:id')
  item(@Param('id') id: string): { id: string } {
    return { id };
  }

  @Get('broken')
  broken(): never {
    throw new Error('a bug with a stack');
  }

  @Get('refused')
  refused(): never {
    throw new BadRequestException('not this one');
  }
}

/**
 * The guide's example with `@Metered()` and `@ValidatedQuery(...)` left out: it writes its own envelope
 * (it takes `@RequestId()`), and is still behind the key, strict about its query and described as metered.
 */
@ApiSchema({ name: 'Forgetful' })
class ForgetfulDto extends ListEnvelopeDto(String) {}

@Controller('v1/forgetful')
export class ForgetfulController {
  @Get()
  @Metered.ok(ForgetfulDto, 'The envelope the handler writes')
  list(@RequestId() requestId: string): string {
    return listEnvelopeJson(['kept as written'], requestId);
  }
}

@Module({ controllers: [PlainController, ForgetfulController] })
export class PlainModule {}
