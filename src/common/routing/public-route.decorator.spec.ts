import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Public, isPublicRoute } from './public-route.decorator';

@Public()
class HealthLikeController {
  check(): void {}
}

class MixedController {
  @Public()
  open(): void {}

  closed(): void {}
}

const contextFor = (controller: new () => object, handler: string) =>
  ({
    getClass: () => controller,
    getHandler: () => (controller.prototype as Record<string, () => void>)[handler],
  }) as unknown as ExecutionContext;

describe('isPublicRoute', () => {
  it('is true for a public controller or handler and false otherwise', () => {
    const reflector = new Reflector();
    expect(isPublicRoute(reflector, contextFor(HealthLikeController, 'check'))).toBe(true);
    expect(isPublicRoute(reflector, contextFor(MixedController, 'open'))).toBe(true);
    expect(isPublicRoute(reflector, contextFor(MixedController, 'closed'))).toBe(false);
  });
});
