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

  it('reads the metadata of a (handler, controller) pair once per key', () => {
    const cached = new RouteMetadata();
    const reads = jest.spyOn(Reflector.prototype, 'getAllAndOverride');
    try {
      for (let ask = 0; ask < 3; ask++) {
        cached.getAllAndOverride(ROLE, targets(BaseController, 'marked'));
        cached.getAllAndOverride('another key', targets(BaseController, 'marked'));
      }
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });
});
