import { Inject, Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ServedCertificate } from '../server/served-certificate';

/**
 * When the certificate the API port serves expires, read at scrape time. Reported only with TLS in
 * the process (TLS_CERT_FILE): on plain HTTP there is none, and a 0 would read as long expired.
 */
@Injectable()
export class TlsCertificateMetrics {
  constructor(registry: Registry, certificate: ServedCertificate, @Inject(APP_CONFIG) config: AppConfig) {
    if (config.tls === null) return;
    new Gauge({
      name: 'tls_certificate_expiry_timestamp_seconds',
      help: 'Unix time at which the certificate served on the API port expires (its notAfter)',
      registers: [registry],
      collect() {
        const expiresAt = certificate.expiresAt;
        this.set(expiresAt === null ? Number.NaN : expiresAt / 1000);
      },
    });
  }
}
