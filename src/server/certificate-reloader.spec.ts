import { Logger } from '@nestjs/common';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server as TlsServer } from 'node:tls';
import { CertificateReloader } from './certificate-reloader';
import { type TlsCredentials, readTlsCredentials } from './tls-credentials';

/** The reloader's refusals; a real renewal over TLS is in test/https.pg.e2e-spec.ts. */
describe('CertificateReloader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reloader-'));
  const files = { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') };
  const served: TlsCredentials = { cert: 'served cert', key: 'served key' };
  let setSecureContext: jest.Mock;
  let reloader: CertificateReloader;
  let warn: jest.SpyInstance;

  beforeEach(() => {
    setSecureContext = jest.fn();
    const server = { setSecureContext, once: jest.fn() } as unknown as TlsServer;
    reloader = new CertificateReloader(server, files, served);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the served certificate while the files do not form a pair, and says so once', () => {
    writeFileSync(files.certFile, 'half-written');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(files.keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    reloader.check();
    reloader.check();
    expect(setSecureContext).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(
      /^Certificate files not reloaded: TLS_CERT_FILE \(.+\): not a PEM certificate$/,
    );
    expect(() => readTlsCredentials(files)).toThrow(/TLS_CERT_FILE/);
  });

  it('keeps the served certificate while a file is missing', () => {
    rmSync(files.certFile, { force: true });
    reloader.check();
    expect(setSecureContext).not.toHaveBeenCalled();
    expect(warn.mock.calls[0][0]).toMatch(/TLS_CERT_FILE \(.+\): cannot be read \(ENOENT\)/);
  });
});
