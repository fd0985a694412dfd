import { type Server, createServer } from 'node:http';
import { type Socket, connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { RoutedRequests } from './routed-requests';

describe('RoutedRequests', () => {
  let server: Server;
  let routed: RoutedRequests;
  let lastSocket: Duplex | undefined;
  let port: number;
  const clients: Socket[] = [];

  beforeEach(async () => {
    routed = new RoutedRequests();
    server = createServer((req, res) => {
      lastSocket = req.socket;
      expect(routed.lastOn(req.socket)?.request).toBe(req);
      res.end('ok');
    });
    routed.watch(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    for (const client of clients) client.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends `bytes` on a kept-alive connection and resolves once an answer has arrived. */
  async function send(bytes: string): Promise<Socket> {
    const client = connect(port, '127.0.0.1');
    clients.push(client);
    const answered = new Promise((resolve) => client.once('data', resolve));
    client.write(bytes);
    await answered;
    return client;
  }

  const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('lets a request go once it is answered and read to its end: the connection keeps nothing', async () => {
    await send('GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret\r\n\r\n');
    await settled();
    expect(routed.lastOn(lastSocket!)).toBeUndefined();
  });

  it('keeps a request whose body is still arriving after its answer, until it ends', async () => {
    const client = await send('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');
    await settled();
    expect(routed.lastOn(lastSocket!)?.request.complete).toBe(false);
    client.write('67890');
    await settled();
    expect(routed.lastOn(lastSocket!)).toBeUndefined();
  });
});
