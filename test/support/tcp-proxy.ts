import { type Server, type Socket, connect, createServer } from 'node:net';

/**
 * A loopback TCP proxy a test controls: `cut()` is a database going away (open connections reset,
 * new ones refused), `restore()` brings it back on the same port. `partition()` drops traffic
 * silently instead (bytes are held, connections neither refused nor reset) until `heal()`.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private partitioned = false;
  private readonly held: Array<() => void> = [];

  /**
   * `tap`, when given, is called for each new connection and returns what receives every chunk
   * the client sends upstream (the proxy forwards the bytes unchanged).
   */
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
    private readonly tap?: () => (chunk: Buffer) => void,
  ) {}

  partition(): void {
    this.partitioned = true;
    for (const socket of this.sockets) socket.pause();
  }

  heal(): void {
    this.partitioned = false;
    for (const socket of this.sockets) socket.resume();
    for (const release of this.held.splice(0)) release();
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      if (this.partitioned) {
        // Accepted, never answered, until the partition heals.
        client.pause();
        this.held.push(() => this.forward(client));
        return;
      }
      this.forward(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    if (this.tap) client.on('data', this.tap());
    client.pipe(upstream).on('close', () => client.destroy());
    upstream.pipe(client).on('close', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.resume();
  }

  async cut(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
    await closed;
  }
}
