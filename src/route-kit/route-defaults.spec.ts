import { Controller, Get, Module, Post, Query, Res } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsOptional, IsString } from 'class-validator';
import type { Response } from 'express';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { Metered, PublicRoute, RequestId, ValidatedQuery } from './index';
import { RouteDefaults, RouteDefaultsModule, RouteRefusal } from './route-defaults';

class GenreQueryDto {
  @IsOptional()
  @IsString()
  genre?: string;
}

@Controller('v1/kinds')
class KindsController {
  @Get()
  plain(@Query() _query: GenreQueryDto, @Query('page') _page?: string): string[] {
    return [];
  }

  @Get('own')
  @Metered()
  own(@ValidatedQuery(NoQueryDto) _query: NoQueryDto, @RequestId() requestId: string) {
    return { data: [], meta: { request_id: requestId } };
  }

  @Get('own-unchecked')
  ownUnchecked(@RequestId() requestId: string) {
    return { data: [], meta: { request_id: requestId } };
  }

  @Get('public')
  @PublicRoute()
  open(): string {
    return 'open';
  }
}

@Controller('v1/write')
class WriteController {
  @Post()
  create(): void {}
}

@Controller('v1/loose')
class LooseQueryController {
  @Get()
  list(@Query() _query: Record<string, string>): void {}
}

@Controller('v1/raw')
class RawController {
  @Get()
  raw(@Res() res: Response): void {
    res.end();
  }
}

async function plansOf(controller: new () => object) {
  @Module({ imports: [RouteDefaultsModule], controllers: [controller] })
  class Probe {}
  const moduleRef = await Test.createTestingModule({ imports: [Probe] }).compile();
  await moduleRef.init();
  const routes = moduleRef.get(RouteDefaults);
  const prototype = controller.prototype as Record<string, object>;
  return { plan: (name: string) => routes.planFor(prototype[name]), close: () => moduleRef.close() };
}

async function refusalOf(controller: new () => object): Promise<unknown> {
  return plansOf(controller).then(
    ({ close }) => close().then(() => null),
    (error: unknown) => error,
  );
}

describe('RouteDefaults', () => {
  it('plans the query and the envelope a route does not handle itself', async () => {
    const { plan, close } = await plansOf(KindsController);
    try {
      expect(plan('plain')).toEqual({
        query: { names: new Set(['genre', 'page']), dtos: [GenreQueryDto] },
        envelope: true,
      });
      // The service's own kind of route (@ValidatedQuery, @RequestId): nothing added, answered as it was.
      expect(plan('own')).toBeUndefined();
      // An own envelope without @ValidatedQuery: its unknown parameters are still refused.
      expect(plan('ownUnchecked')).toEqual({ query: { names: new Set(), dtos: [] }, envelope: false });
      // A public route's query is its own (/health ignores one); its value is still enveloped.
      expect(plan('open')).toEqual({ query: null, envelope: true });
    } finally {
      await close();
    }
  });

  it.each([
    [
      WriteController,
      'POST /v1/write (WriteController.create): the contract serves GET and HEAD only; make it @Get() or leave it out of the service',
    ],
    [
      LooseQueryController,
      'GET /v1/loose (LooseQueryController.list): @Query() has no class to say which parameters it takes',
    ],
    [RawController, 'GET /v1/raw (RawController.raw): @Res() sends the answer past the envelope'],
  ])('refuses the start with one line naming the route and the fix: %p', async (controller, message) => {
    const error = await refusalOf(controller);
    expect(error).toBeInstanceOf(RouteRefusal);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
  });
});
