import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type SecureContextOptions, createSecureContext } from 'node:tls';
import type { TlsConfig } from '../config/app-config';

/** A certificate chain and its private key as PEM text, read from TLS_CERT_FILE and TLS_KEY_FILE. */
export interface TlsCredentials {
  cert: string;
  key: string;
}

/** The oldest protocol the service speaks (Node's default too, stated so a default cannot lower it). */
export const TLS_MIN_VERSION = 'TLSv1.2';

/** A certificate or key that cannot be used; its message is one line naming the variable. */
export class TlsFileError extends Error {}

/**
 * Reads and checks both files: each must be readable PEM, and the key must be the certificate's.
 * Throws a `TlsFileError` naming the variable at fault.
 */
export function readTlsCredentials(files: TlsConfig): TlsCredentials {
  const cert = readPem('TLS_CERT_FILE', files.certFile);
  const key = readPem('TLS_KEY_FILE', files.keyFile);
  try {
    new X509Certificate(cert);
  } catch {
    throw new TlsFileError(`TLS_CERT_FILE (${files.certFile}): not a PEM certificate`);
  }
  try {
    createPrivateKey(key);
  } catch {
    throw new TlsFileError(
      `TLS_KEY_FILE (${files.keyFile}): not a PEM private key (or one with a passphrase)`,
    );
  }
  try {
    createSecureContext(secureContextOptions({ cert, key }));
  } catch (error) {
    throw new TlsFileError(
      `TLS_KEY_FILE (${files.keyFile}): does not match the certificate in TLS_CERT_FILE (${firstLine(error)})`,
    );
  }
  return { cert, key };
}

/** What a secure context is made of: the credentials and the protocol floor. */
export function secureContextOptions(credentials: TlsCredentials): SecureContextOptions {
  return { cert: credentials.cert, key: credentials.key, minVersion: TLS_MIN_VERSION };
}

function readPem(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new TlsFileError(`${variable} (${path}): cannot be read (${code ?? firstLine(error)})`);
  }
}

function firstLine(error: unknown): string {
  return String((error as { message?: unknown })?.message ?? error).split('\n')[0];
}
