import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Response } from 'express';
import {
  RATE_LIMIT_FIELDS,
  RATE_LIMIT_HEADERS,
  RateLimitPolicyFields,
  admittedHeaders,
  rateLimitCurrentField,
  refusedHeaders,
} from './rate-limit-headers';
import type { KeyPolicy } from './key-policy';
import { type LimitRow, type LimitTable, counterKeyOf } from './limit-table';
import { authenticatedKey } from './authenticated-key';
import { ApiError } from '../common/errors/api-error';
import { isPublicRoute } from '../common/routing/public-route.decorator';
import { RouteMetadata } from '../common/routing/route-metadata';
import { ReplicaAllowances } from './replica-allowances';
import { LIMIT_TABLE } from './limit-table.token';
import { limitUsage } from './limit-usage';
import { requestOf, responseOf } from '../common/http-context';
import { setAnswerHeader } from '../common/answer-head/answer-head';

/** The limit table's rows checked in its order, stopping at the first refusal; it writes every rate-limit header. */
@Injectable()
export class LimitsGuard extends ThrottlerGuard {
  private readonly rowByName: ReadonlyMap<string, LimitRow>;
  private readonly policyFields: RateLimitPolicyFields;
  private readonly refusalCodes: ReadonlySet<string>;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: RouteMetadata,
    private readonly allowances: ReplicaAllowances,
    @Inject(LIMIT_TABLE) private readonly limits: LimitTable,
  ) {
    super(options, storage, reflector);
    this.rowByName = new Map(limits.map((row) => [row.name, row]));
    this.policyFields = new RateLimitPolicyFields(limits);
    this.refusalCodes = new Set(limits.map((row) => row.refusal));
  }

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    // The package sorts named throttlers by ttl (fixed ones first); the order of checks is the table's.
    const position = new Map(this.limits.map((row, index) => [row.name, index]));
    this.throttlers.sort((a, b) => position.get(a.name ?? '')! - position.get(b.name ?? '')!);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const key = authenticatedKey(requestOf(context));
    const res = responseOf(context);
    let admitted: boolean;
    try {
      admitted = await super.canActivate(context);
    } catch (error) {
      // A limit's refusal wrote its own headers; any other failure after the key carries the policy's.
      if (key && !(error instanceof ApiError && this.refusalCodes.has(error.code))) writeAdmitted(res, key);
      throw error;
    }
    if (key) {
      writeAdmitted(res, key);
      const fields = this.currentFields(key, null);
      setAnswerHeader(res, RATE_LIMIT_FIELDS.policy, fields[RATE_LIMIT_FIELDS.policy]);
      setAnswerHeader(res, RATE_LIMIT_FIELDS.current, fields[RATE_LIMIT_FIELDS.current]);
    }
    return admitted;
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return isPublicRoute(this.reflector, context);
  }

  /** One row's check (the package's documented override): count the request, or refuse with the row's error. */
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = request;
    const row = this.rowByName.get(throttler.name ?? '');
    if (!row) throw new Error(`A throttler that is no limit of the table: ${throttler.name}`);
    const req = requestOf(context);
    const counter = generateKey(context, await getTracker(req, context), row.name);
    const { isBlocked } = await this.storageService.increment(counter, ttl, limit, blockDuration, row.name);
    if (isBlocked) {
      const key = authenticatedKey(req);
      const res = responseOf(context);
      res.set({
        ...(key ? { [RATE_LIMIT_HEADERS.limit]: admittedHeaders(key)[RATE_LIMIT_HEADERS.limit] } : {}),
        ...refusedHeaders(row, Date.now()),
        ...(key ? this.currentFields(key, row) : {}),
      });
      throw new ApiError(row.refusal);
    }
    return true;
  }

  /** The RateLimit fields from what this replica knows (no I/O), within a block per other replica. */
  private currentFields(key: KeyPolicy, refusedBy: LimitRow | null): Record<string, string> {
    const now = Date.now();
    const usages = this.limits.map((row) => {
      const usage = limitUsage(row, key, this.allowances.localWindow(counterKeyOf(row.name, key)), now);
      if (row === refusedBy) usage.remaining = 0;
      return usage;
    });
    return {
      [RATE_LIMIT_FIELDS.policy]: this.policyFields.of(key, now),
      [RATE_LIMIT_FIELDS.current]: rateLimitCurrentField(this.limits, usages, now),
    };
  }
}

/** The key's policy headers on an answer the limits did not refuse. */
function writeAdmitted(res: Response, key: KeyPolicy): void {
  const policy = admittedHeaders(key);
  setAnswerHeader(res, RATE_LIMIT_HEADERS.limit, policy[RATE_LIMIT_HEADERS.limit]);
  setAnswerHeader(res, RATE_LIMIT_HEADERS.remaining, policy[RATE_LIMIT_HEADERS.remaining]);
}
