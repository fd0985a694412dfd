import { Injectable, Module, type Type } from '@nestjs/common';
import { type ReflectableDecorator, Reflector } from '@nestjs/core';

type Target = Type<unknown> | ((...args: never[]) => unknown);

/** Held for a key the route does not set (most of them): one map read per ask, not two. */
const NO_ANSWER = Symbol('noAnswer');

/**
 * Reflector memoizing `getAllAndOverride` per handler: metadata never changes after definition, and
 * the guards' lookups cost about a tenth of a lookup's CPU (Node 24).
 */
@Injectable()
export class RouteMetadata extends Reflector {
  /** Per handler, the controller it was first asked with and the answers by metadata key. */
  private readonly answers = new Map<object, { controller: object; byKey: Map<unknown, unknown> }>();

  override getAllAndOverride<TParam = unknown, TTransformed = TParam>(
    decorator: ReflectableDecorator<TParam, TTransformed>,
    targets: Target[],
  ): TTransformed;
  override getAllAndOverride<TResult = unknown, TKey = unknown>(
    metadataKey: TKey,
    targets: Target[],
  ): TResult;
  override getAllAndOverride(metadataKey: unknown, targets: Target[]): unknown {
    if (targets.length !== 2) return super.getAllAndOverride(metadataKey, targets);
    const [handler, controller] = targets;
    let entry = this.answers.get(handler);
    if (!entry) this.answers.set(handler, (entry = { controller, byKey: new Map() }));
    // A handler inherited by a second controller may answer differently there: asked each time.
    else if (entry.controller !== controller) return super.getAllAndOverride(metadataKey, targets);
    const held = entry.byKey.get(metadataKey);
    if (held !== undefined) return held === NO_ANSWER ? undefined : held;
    const answer: unknown = super.getAllAndOverride(metadataKey, targets);
    entry.byKey.set(metadataKey, answer === undefined ? NO_ANSWER : answer);
    return answer;
  }
}

/** Provides the one RouteMetadata the global guards share. */
@Module({ providers: [RouteMetadata], exports: [RouteMetadata] })
export class RouteMetadataModule {}
