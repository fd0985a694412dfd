/** The operationId of GET /v1/titles/{imdb_id}, which links from pages of titles point to. */
export const TITLE_LOOKUP_OPERATION_ID = 'CatalogController_getTitle';
