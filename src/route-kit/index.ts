// The one import of a feature module (docs/extending.md): access, answers, queries, errors and reads.
export { Metered, PublicRoute, QuotaFree } from './route-access';
export { ApiTag } from '../openapi/api-tag.decorator';
export { ItemEnvelopeDto, ListEnvelopeDto, PageMetaDto, RequestMetaDto } from '../openapi/envelope.dto';
export { ValidatedQuery } from '../common/validation/validated-query.decorator';
export { IntegerQueryParam } from '../common/validation/query-decorators';
export { NoQueryDto } from '../common/validation/no-query.dto';
export { RequestId } from '../common/request-id/request-id.decorator';
export { Conditional, ConditionalReply } from '../common/conditional/conditional-reply';
export type { Versioned } from '../common/conditional/versioned';
export {
  EnvelopeBytes,
  MAX_PAGE,
  MAX_PER_PAGE,
  listEnvelopeJson,
  pageMeta,
  pageSlice,
} from '../common/envelope';
export { ApiError } from '../common/errors/api-error';
export type { ErrorCode } from '../common/errors/error-catalogue';
export { CurrentKey } from '../auth/current-key.decorator';
export type { KeyPolicy } from '../limits/key-policy';
export { CatalogReadDatabase } from '../database/catalog-read-database';
export { CATALOG_VERSION, catalogStateFrom, readVersioned, versionOf } from '../database/versioned-read';
