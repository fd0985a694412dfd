import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { RequestMeta } from '../common/envelope';
import { RequestId } from '../common/request-id/request-id.decorator';
import { Public } from '../common/routing/public-route.decorator';
import { REFERENCE_PATH } from './api-reference.page';

/** A way in, named by its link relation (RFC 8631: service-doc, service-desc; status). */
export interface Signpost {
  rel: 'service-doc' | 'service-desc' | 'status';
  href: string;
  type: 'text/html' | 'application/json';
  title: string;
}

export const SIGNPOSTS: readonly Signpost[] = [
  {
    rel: 'service-doc',
    href: REFERENCE_PATH,
    type: 'text/html',
    title: 'The API reference: every route, parameter, answer and error, to read in a browser',
  },
  {
    rel: 'service-desc',
    href: '/openapi.json',
    type: 'application/json',
    title: 'The same reference as an OpenAPI 3.1 document, for tools and typed clients',
  },
  { rel: 'status', href: '/health', type: 'application/json', title: 'Service and catalog health' },
];

/**
 * `GET /`: where to start, in the envelope's style. Public and not metered, like what it names; left
 * out of the OpenAPI document, as /openapi.json and /docs are: they are ways to the API, not part of it.
 */
@Controller()
@ApiExcludeController()
export class SignpostController {
  @Get()
  @Public()
  signpost(@RequestId() requestId: string): { data: readonly Signpost[]; meta: RequestMeta } {
    return { data: SIGNPOSTS, meta: { request_id: requestId } };
  }
}
