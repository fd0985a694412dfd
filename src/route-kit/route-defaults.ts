import {
  type CanActivate,
  type ExecutionContext,
  type INestApplicationContext,
  Injectable,
  Module,
  type OnModuleInit,
  RequestMethod,
  type Type,
} from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import {
  DiscoveryModule,
  DiscoveryService,
  MetadataScanner,
  ModulesContainer,
  Reflector,
} from '@nestjs/core';
import { ApiOperation, ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ClassConstructor } from 'class-transformer';
import { ApiError } from '../common/errors/api-error';
import { requestOf, responseOf } from '../common/http-context';
import { answerAsData } from '../common/routing/data-answer';
import { OWN_ENVELOPE, VALIDATED_QUERY } from '../common/routing/handler-marks';
import { asList, joinPath } from '../common/routing/known-routes';
import { PUBLIC_ROUTE } from '../common/routing/public-route.decorator';
import { parseRawQuery } from '../common/validation/raw-query';
import { unknownParameterMessage } from '../common/validation/unknown-parameter';
import { knownParameters, validateQuery } from '../common/validation/validated-query.decorator';
import { QUOTA_FREE_ROUTE } from '../limits/quota-free.decorator';
import { StartupFailure } from '../startup/startup-failure';
import { RequestMetaDto } from '../openapi/envelope.dto';
import { Metered, OK_DESCRIBED, PublicRoute, QuotaFree } from './route-access';

/** The 200 answer of a route that returns plain values: what it returned, in the envelope. */
@ApiSchema({ name: 'DataEnvelope' })
export class DataEnvelopeDto {
  @ApiProperty({
    type: 'array',
    items: {},
    description: "The route's value: an array as it is, any other value as its one item",
  })
  data!: unknown[];

  @ApiProperty({ type: RequestMetaDto })
  meta!: RequestMetaDto;
}

/** The query parameters a route declares with `@Query('name')` and `@Query() dto: SomeDto`. */
interface QueryPlan {
  names: ReadonlySet<string>;
  dtos: readonly ClassConstructor<object>[];
}

/** What the service adds to one route at each request. */
interface RoutePlan {
  /** Unknown parameters refused, a `@Query()` DTO validated (none on a public route or `@ValidatedQuery`). */
  query: QueryPlan | null;
  /** The handler's value sent as `data` of the envelope (none when it takes `@RequestId()` or `@Conditional()`). */
  envelope: boolean;
}

/** A route the service cannot serve as the contract says: one line naming it and the fix. */
export class RouteRefusal extends StartupFailure {}

const SERVED_METHODS = new Set([RequestMethod.GET, RequestMethod.HEAD]);

/**
 * The contract for every route, a team's plain NestJS controller included: read at start from each
 * controller's metadata (DiscoveryService), applied per request by `RouteDefaultsGuard`; its OpenAPI
 * side is `describeRouteDefaults`.
 */
@Injectable()
export class RouteDefaults implements OnModuleInit {
  private readonly plans = new Map<object, RoutePlan>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    for (const { controller, name, handler, method } of routesOf(this.discovery, this.scanner)) {
      const route = `${RequestMethod[method]} ${routePath(controller, handler)} (${controller.name}.${name})`;
      if (!SERVED_METHODS.has(method)) {
        throw new RouteRefusal(
          `${route}: the contract serves GET and HEAD only; make it @Get() or leave it out of the service`,
        );
      }
      const plan = this.planOf(route, controller, name, handler);
      if (plan.query || plan.envelope) this.plans.set(handler, plan);
    }
  }

  /** The request's plan; undefined for a route that needs nothing added (the service's own). */
  planFor(handler: object): RoutePlan | undefined {
    return this.plans.get(handler);
  }

  private planOf(route: string, controller: Type<unknown>, name: string, handler: Handler): RoutePlan {
    const targets = [handler, controller];
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true;
    const validated = Reflect.getMetadata(VALIDATED_QUERY, handler) === true;
    const ownEnvelope = Reflect.getMetadata(OWN_ENVELOPE, handler) === true;
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
      string,
      { index: number; data?: unknown }
    >;
    const types = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, name) ??
      []) as unknown[];
    const names = new Set<string>();
    const dtos: ClassConstructor<object>[] = [];
    for (const [key, { index, data }] of Object.entries(args)) {
      const kind = Number(key.split(':')[0]);
      if (kind === RouteParamtypes.RESPONSE && !isPassthrough(data)) {
        throw new RouteRefusal(
          `${route}: @Res() sends the answer past the envelope; use @Res({ passthrough: true }) and return the value`,
        );
      }
      if (kind !== RouteParamtypes.QUERY) continue;
      if (typeof data === 'string') {
        names.add(data);
        continue;
      }
      const type = types[index];
      if (typeof type !== 'function' || type === Object) {
        throw new RouteRefusal(
          `${route}: @Query() has no class to say which parameters it takes; type it with a DTO class ` +
            `(class-validator decorators) or name each parameter with @Query('name')`,
        );
      }
      dtos.push(type as ClassConstructor<object>);
      for (const known of knownParameters(type as ClassConstructor<object>)) names.add(known);
    }
    return { query: isPublic || validated ? null : { names, dtos }, envelope: !ownEnvelope };
  }
}

type Handler = (...args: unknown[]) => unknown;

/** Every route handler of the application's controllers. */
function* routesOf(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
): Generator<{ controller: Type<unknown>; name: string; handler: Handler; method: RequestMethod }> {
  for (const { metatype } of discovery.getControllers()) {
    if (typeof metatype !== 'function') continue;
    const controller = metatype as Type<unknown>;
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name] as Handler;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method !== undefined) yield { controller, name, handler, method };
    }
  }
}

/**
 * Each route's OpenAPI description where it gives none: a summary naming its handler when it has no
 * `@ApiOperation()`, `Metered()` when it names no access kind (the guards treat it so), and the
 * envelope as its 200 answer when the service writes it. Called before
 * the document is built (`createOpenApiDocument`, also in Nest's preview mode); a route described
 * once is left as it is, so building the document again or for another app changes nothing.
 */
export function describeRouteDefaults(app: INestApplicationContext): void {
  // Made here, not asked of the app: in preview mode its providers are not constructed.
  const reflector = new Reflector();
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  for (const { controller, name, handler } of routesOf(discovery, new MetadataScanner())) {
    const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, name);
    if (!descriptor) continue;
    const targets = [handler, controller];
    ApiOperation(
      {
        summary: `${controller.name}.${name}`,
        description:
          'Described by default: the route gives no @ApiOperation({ summary, description }) of its own.',
      },
      { overrideExisting: false },
    )(controller.prototype as object, name, descriptor);
    const access = reflector.getAllAndOverride<boolean | undefined>(PUBLIC_ROUTE, targets);
    if (access === undefined) Metered()(controller.prototype as object, name, descriptor);
    if (Reflect.getMetadata(OWN_ENVELOPE, handler) === true) continue;
    if (reflector.getAllAndOverride<boolean>(OK_DESCRIBED, targets)) continue;
    const kind =
      access === true
        ? PublicRoute
        : reflector.getAllAndOverride<boolean>(QUOTA_FREE_ROUTE, targets)
          ? QuotaFree
          : Metered;
    kind.ok(DataEnvelopeDto, "The route's value as data, with the request id")(
      controller.prototype as object,
      name,
      descriptor,
    );
  }
}

function isPassthrough(data: unknown): boolean {
  return (
    typeof data === 'object' && data !== null && (data as { passthrough?: unknown }).passthrough === true
  );
}

function routePath(controller: Type<unknown>, handler: Handler): string {
  const prefix = asList(Reflect.getMetadata(PATH_METADATA, controller))[0];
  const path = asList(Reflect.getMetadata(PATH_METADATA, handler))[0];
  return joinPath(prefix, path);
}

/**
 * Third of the global guards, after the key and the limits (the contract's order): a route that
 * declares its query with Nest's `@Query()` has unknown parameters refused here, and a route that
 * writes no envelope has its value sent in one (`common/routing/data-answer.ts`). The service's own
 * routes have no plan and pass at once.
 */
@Injectable()
export class RouteDefaultsGuard implements CanActivate {
  constructor(private readonly routes: RouteDefaults) {}

  canActivate(context: ExecutionContext): boolean {
    const plan = this.routes.planFor(context.getHandler());
    if (plan === undefined) return true;
    if (plan.query) checkQuery(plan.query, requestOf(context).originalUrl);
    if (plan.envelope) answerAsData(responseOf(context));
    return true;
  }
}

/** Strictly parsed; a name no parameter declares is a VALIDATION_ERROR, and each DTO validates its own. */
function checkQuery(plan: QueryPlan, url: string): void {
  const raw = parseRawQuery(url);
  for (const name of Object.keys(raw)) {
    if (!plan.names.has(name))
      throw new ApiError('VALIDATION_ERROR', unknownParameterMessage(name, plan.names));
  }
  for (const dto of plan.dtos) {
    const own: Record<string, string> = Object.create(null);
    for (const name of knownParameters(dto)) if (name in raw) own[name] = raw[name];
    validateQuery(dto, own);
  }
}

/** Provides the plans and the guard `AppModule` registers after the key and the limits. */
@Module({
  imports: [DiscoveryModule],
  providers: [RouteDefaults, RouteDefaultsGuard],
  exports: [RouteDefaultsGuard],
})
export class RouteDefaultsModule {}
