import type { Request } from 'express';
import type { ApiKeyPolicy } from './api-key.service';

/** A request that passed ApiKeyGuard; later guards read the key it attached. */
export interface AuthenticatedRequest extends Request {
  apiKey: ApiKeyPolicy;
}
