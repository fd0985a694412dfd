import { SetMetadata } from '@nestjs/common';

/** Route metadata read by the global guards: a public route needs no API key and is not metered. */
export const PUBLIC_ROUTE = 'catalog-api:public-route';

/** Marks a controller or handler as public (`/health`, `/openapi.json`). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
