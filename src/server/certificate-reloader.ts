import { Logger } from '@nestjs/common';
import type { Server as TlsServer } from 'node:tls';
import type { TlsConfig } from '../config/app-config';
import type { ServedCertificate } from './served-certificate';
import { type TlsCredentials, readTlsCredentials, secureContextOptions } from './tls-credentials';

/** How often the certificate files are read again (a renewed Kubernetes secret takes up to a minute). */
export const CERTIFICATE_CHECK_INTERVAL_MS = 2_000;

/**
 * Keeps a TLS server's certificate in step with its files. The files are read every
 * `CERTIFICATE_CHECK_INTERVAL_MS` and compared with what is served (polling, not `fs.watch`: a
 * mounted secret is renewed by swapping a symlink, which a watch on the old file never sees); when
 * they changed and form a valid pair, `setSecureContext` makes new connections use them. Open
 * connections keep their session, so none is dropped. A pair that does not load (a half-written
 * renewal, a key for another certificate) is logged once and the served certificate stays.
 * `servedCertificate`, when given, always holds the certificate served (for metrics).
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
