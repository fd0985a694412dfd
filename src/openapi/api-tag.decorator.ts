import { applyDecorators } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

const descriptions = new Map<string, string>();

/**
 * `@ApiTags(name)` with the tag's description, for a module's controller (docs/extending.md): the
 * document declares the tag with it, so the module needs no line in `openapi-document.ts`.
 */
export function ApiTag(name: string, description: string): ClassDecorator & MethodDecorator {
  descriptions.set(name, description);
  return applyDecorators(ApiTags(name));
}

/** The description `@ApiTag` gave `name`, if any. */
export function tagDescription(name: string): string | undefined {
  return descriptions.get(name);
}
