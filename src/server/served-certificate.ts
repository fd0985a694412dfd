import { Injectable } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';

/**
 * The certificate the API port serves with TLS in the process (TLS_CERT_FILE): set at start and at
 * each reload, so metrics report the one clients get, not a renewal that failed to load.
 */
@Injectable()
export class ServedCertificate {
  private notAfterMs: number | null = null;

  /** `certificate`: the served chain as PEM, leaf first. */
  serve(certificate: string): void {
    this.notAfterMs = Date.parse(new X509Certificate(certificate).validTo);
  }

  /** When the leaf certificate expires (Unix ms); null before one is served, or on plain HTTP. */
  get expiresAt(): number | null {
    return this.notAfterMs;
  }
}
