import { Logger } from '@nestjs/common';
import type { Server as TlsServer } from 'node:tls';
import type { TlsConfig } from '../config/app-config';
import type { ServedCertificate } from './served-certificate';
import { type TlsCredentials, readTlsCredentials, secureContextOptions } from './tls-credentials';

/** How often the certificate files are read again (a renewed Kubernetes secret takes up to a minute). */
export const CERTIFICATE_CHECK_INTERVAL_MS = 2_000;

/**
 * Polls the certificate files (a renewed mounted secret swaps a symlink, which `fs.watch` misses);
 * a new valid pair serves new connections, an invalid one is logged once (docs/operations.md, HTTPS).
 */
export class CertificateReloader {
  private readonly logger = new Logger('TLS');
  private timer: NodeJS.Timeout | null = null;
  private lastRefused: string | null = null;

  constructor(
    private readonly server: TlsServer,
    private readonly files: TlsConfig,
    private served: TlsCredentials,
    private readonly servedCertificate?: ServedCertificate,
  ) {
    servedCertificate?.serve(served.cert);
  }

  start(): void {
    this.timer = setInterval(() => this.check(), CERTIFICATE_CHECK_INTERVAL_MS).unref();
    this.server.once('close', () => this.stop());
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reads the files once; switches the served certificate when they hold a new, valid pair. */
  check(): void {
    let next: TlsCredentials;
    try {
      next = readTlsCredentials(this.files);
    } catch (error) {
      const reason = (error as Error).message;
      if (reason !== this.lastRefused) this.logger.warn(`Certificate files not reloaded: ${reason}`);
      this.lastRefused = reason;
      return;
    }
    this.lastRefused = null;
    if (next.cert === this.served.cert && next.key === this.served.key) return;
    this.server.setSecureContext(secureContextOptions(next));
    this.served = next;
    this.servedCertificate?.serve(next.cert);
    this.logger.log(`Certificate reloaded from ${this.files.certFile}`);
  }
}
