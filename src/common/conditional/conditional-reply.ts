import { hash } from 'node:crypto';
import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ByteString, EnvelopeBytes } from '../envelope';
import { requestIdOf } from '../request-id/request-id';
import type { Versioned } from './versioned';
import { requestOf, responseOf } from '../http-context';
import { setAnswerHeader } from '../answer-head/answer-head';
import { OWN_ENVELOPE, markingHandler } from '../routing/handler-marks';

/**
 * Strong tag of catalog version (the load's: label and load number) and target as sent, no body hashed (`request_id` is not part of the
 * representation, docs/api.md). One-shot `hash`: a third of a `createHash` object's cost.
 */
export function entityTag(version: string, target: string): string {
  return `"${hash('sha256', `${version}\0${target}`, 'base64url').slice(0, 27)}"`;
}

/**
 * Recent targets' tags, so a cached answer's tag is hashed once per version. Emptied when full, long
 * targets not held: at most about 3 MB (docs/operations.md, Bounds).
 */
const heldTags = new Map<string, { version: string; tag: string }>();
const HELD_TAGS = 10_000;
const HELD_TARGET_LENGTH = 200;

function heldEntityTag(version: string, target: string): string {
  if (target.length > HELD_TARGET_LENGTH) return entityTag(version, target);
  const held = heldTags.get(target);
  if (held !== undefined && held.version === version) return held.tag;
  if (heldTags.size >= HELD_TAGS) heldTags.clear();
  const tag = entityTag(version, target);
  heldTags.set(target, { version, tag });
  return tag;
}

/**
 * Handlers end with `reply.envelope(read)` or `reply.json(read, body)`, so only read data gets an
 * ETag; Express decides the 304. Not an interceptor: Nest's RxJS and AsyncResource steps cost a
 * quarter of a lookup's CPU (bench/RESULTS.md).
 */
export class ConditionalReply {
  constructor(
    private readonly req: Request,
    private readonly res: Response,
  ) {}

  /**
   * The JSON `body` makes of `read` (text, or its UTF-8 bytes), tagged with its version and sent as
   * `application/json; charset=utf-8` as it is; none when the client's copy is fresh.
   */
  json<V>(read: Versioned<V>, body: (value: V) => string | Uint8Array): string | Uint8Array | undefined {
    if (this.isFresh(read.version)) return undefined;
    const answer = body(read.value);
    setAnswerHeader(
      this.res,
      'Content-Type',
      typeof answer === 'string' ? JSON_TEXT_CONTENT_TYPE : JSON_BYTES_CONTENT_TYPE,
    );
    return answer;
  }

  /** A cached envelope with this request's id in `meta`, tagged and sent as `json` does. */
  envelope(read: Versioned<EnvelopeBytes>): ByteString | undefined {
    if (this.isFresh(read.version)) return undefined;
    setAnswerHeader(this.res, 'Content-Type', JSON_BYTES_CONTENT_TYPE);
    return read.value.withRequestId(requestIdOf(this.req));
  }

  /** Tags an answer of a known catalog version; whether the client's copy of it is fresh. */
  private isFresh(version: string | null): boolean {
    if (version === null) return false;
    setAnswerHeader(this.res, 'ETag', heldEntityTag(version, this.req.originalUrl));
    return isConditional(this.req) && this.req.fresh;
  }
}

/** Whether the request asks a condition Express's `req.fresh` reads: without one nothing is fresh. */
function isConditional(req: Request): boolean {
  return req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
}

/**
 * Without its charset: Express adds `; charset=utf-8` to a string answer itself, as for `res.json`,
 * and parses a type that already has parameters at a higher cost (bench/RESULTS.md, lookup profile).
 */
const JSON_TEXT_CONTENT_TYPE = 'application/json';
/** Express adds no charset to bytes: the same header, written whole. */
const JSON_BYTES_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The request's `ConditionalReply`; its handler answers its own envelope (`route-kit/route-defaults.ts`). */
export const Conditional = markingHandler(
  OWN_ENVELOPE,
  createParamDecorator((_data: unknown, ctx: ExecutionContext): ConditionalReply => {
    return new ConditionalReply(requestOf(ctx), responseOf(ctx));
  }),
);
