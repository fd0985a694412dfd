import { Injectable, Module, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule, DiscoveryService, MetadataScanner } from '@nestjs/core';

/** GET route templates, from DiscoveryService on first use plus pages `add`ed beside them. */
@Injectable()
export class KnownRoutes {
  private readonly mounted: string[] = [];
  private routes: readonly string[] | undefined;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  /** A GET path served outside the controllers (a page mounted on the HTTP adapter). */
  add(path: string): void {
    this.mounted.push(path);
    this.routes = undefined;
  }

  all(): readonly string[] {
    this.routes ??= [...new Set([...this.controllerRoutes(), ...this.mounted])];
    return this.routes;
  }

  private controllerRoutes(): string[] {
    return this.discovery.getControllers().flatMap(({ metatype }) => {
      if (typeof metatype !== 'function') return [];
      const prefixes = asList(Reflect.getMetadata(PATH_METADATA, metatype));
      const prototype = metatype.prototype as Record<string, unknown>;
      return this.scanner.getAllMethodNames(prototype).flatMap((name) => {
        const handler = prototype[name] as object;
        if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) return [];
        const paths = asList(Reflect.getMetadata(PATH_METADATA, handler));
        return prefixes.flatMap((prefix) => paths.map((path) => joinPath(prefix, path)));
      });
    });
  }
}

export function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? [value] : ['/'];
}

export function joinPath(...parts: string[]): string {
  return `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`;
}

/** Provides the one KnownRoutes the error filter and the mounted pages share. */
@Module({ imports: [DiscoveryModule], providers: [KnownRoutes], exports: [KnownRoutes] })
export class KnownRoutesModule {}
