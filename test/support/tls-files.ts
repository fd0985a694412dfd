import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl, and its key. */
export interface SelfSigned {
  cert: string;
  key: string;
  /** SHA-256 fingerprint as `getPeerCertificate().fingerprint256` writes it. */
  fingerprint: string;
}

/** A folder holding the served `tls.crt` / `tls.key`, as a mounted secret does; removed by `cleanup()`. */
export class TlsFiles {
  readonly dir = mkdtempSync(join(tmpdir(), 'catalog-tls-'));
  readonly certFile = join(this.dir, 'tls.crt');
  readonly keyFile = join(this.dir, 'tls.key');

  /** A new self-signed pair (EC P-256, valid two days) named `name`. */
  selfSigned(name: string): SelfSigned {
    const certFile = join(this.dir, `${name}.crt`);
    const keyFile = join(this.dir, `${name}.key`);
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        `/CN=${name}`,
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(certFile, 'utf8');
    return {
      cert,
      key: readFileSync(keyFile, 'utf8'),
      fingerprint: new X509Certificate(cert).fingerprint256,
    };
  }

  /** Puts `pair` in place, each file replaced at once (a rename), the key first. */
  serve(pair: SelfSigned): void {
    this.replace(this.keyFile, pair.key);
    this.replace(this.certFile, pair.cert);
  }

  /** Writes `content` to a file next to the served ones, for a bad-file case. */
  write(name: string, content: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private replace(path: string, content: string): void {
    const staged = `${path}.next`;
    writeFileSync(staged, content);
    renameSync(staged, path);
  }
}
