import { BadRequestException, Controller, Get, Module, Param, Query } from '@nestjs/common';

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

@Module({ controllers: [PlainController] })
export class PlainModule {}
