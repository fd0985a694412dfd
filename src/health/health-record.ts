/** The health record of the contract: exactly status, environment and catalog. */
export interface HealthRecord {
  status: 'ok';
  environment: string;
  catalog: {
    catalog_version: string | null;
    title_count: number;
    ingested_at: string | null;
    enrichment_complete: boolean;
  };
}
