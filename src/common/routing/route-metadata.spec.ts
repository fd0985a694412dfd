import { SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteMetadata } from './route-metadata';

const ROLE = 'test:role';
const Role = (role: string) => SetMetadata(ROLE, role);

@Role('controller')
class BaseController {
  @Role('handler')
  marked(): void {}

  plain(): void {}
}

@Role('other controller')
class DerivedController extends BaseController {}

class BareController {
  plain(): void {}
}

const targets = (controller: object, handler: string) => [
  (BaseController.prototype as unknown as Record<string, () => void>)[handler],
  controller as () => void,
];

describe('RouteMetadata', () => {
  it("answers getAllAndOverride as Nest's Reflector does", () => {
    const cached = new RouteMetadata();
    const plain = new Reflector();
    const cases = [
      targets(BaseController, 'marked'),
      targets(BaseController, 'plain'),
      targets(DerivedController, 'plain'),
      [BareController.prototype.plain, BareController],
    ];
    for (const pair of cases) {
      for (let ask = 0; ask < 2; ask++) {
        expect(cached.getAllAndOverride(ROLE, pair)).toBe(plain.getAllAndOverride(ROLE, pair));
      }
    }
    expect(cached.getAllAndOverride(ROLE, targets(DerivedController, 'plain'))).toBe('other controller');
    expect(cached.getAllAndOverride(ROLE, [BareController.prototype.plain, BareController])).toBeUndefined();
  });

  it('keeps string and symbol keys apart, a key built per ask and `__proto__` included', () => {
    const SYMBOL = Symbol(ROLE);
    const withBoth = { handler: () => undefined };
    SetMetadata(SYMBOL, 'by symbol')(withBoth, 'handler', { value: withBoth.handler });
    SetMetadata(ROLE, 'by name')(withBoth, 'handler', { value: withBoth.handler });
    SetMetadata('__proto__', 'odd name')(withBoth, 'handler', { value: withBoth.handler });
    // As long as `toString`, so that name is looked up, not ruled out by its length.
    SetMetadata('eightish', 'eight')(withBoth, 'handler', { value: withBoth.handler });
    const pair = [withBoth.handler, BareController];
    const cached = new RouteMetadata();
    for (let ask = 0; ask < 2; ask++) {
      expect(cached.getAllAndOverride(SYMBOL, pair)).toBe('by symbol');
      expect(cached.getAllAndOverride(['test', 'role'].join(':'), pair)).toBe('by name');
      expect(cached.getAllAndOverride('__proto__', pair)).toBe('odd name');
      expect(cached.getAllAndOverride('toString', pair)).toBeUndefined();
      expect(cached.getAllAndOverride('eightish', pair)).toBe('eight');
    }
  });

  it('reads the metadata of a (handler, controller) pair once per key', () => {
    const cached = new RouteMetadata();
    const reads = jest.spyOn(Reflector.prototype, 'getAllAndOverride');
    try {
      for (let ask = 0; ask < 3; ask++) {
        cached.getAllAndOverride(ROLE, targets(BaseController, 'marked'));
        // As long as ROLE, so possibly set: read once, then held.
        cached.getAllAndOverride(ROLE.toUpperCase(), targets(BaseController, 'marked'));
      }
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('answers a string key as long as no key set on the pair without reading: none is set', () => {
    const cached = new RouteMetadata();
    const reads = jest.spyOn(Reflector.prototype, 'getAllAndOverride');
    try {
      const pair = targets(DerivedController, 'marked');
      for (let ask = 0; ask < 3; ask++) {
        expect(cached.getAllAndOverride(`THROTTLER:LIMIT${'minute'}`, pair)).toBeUndefined();
        expect(cached.getAllAndOverride(ROLE, pair)).toBe('handler');
      }
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});
