import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type KeyValue = { key: string; value: AnyValue };

/** One span as an OTLP/HTTP JSON export carries it, with its resource's attributes beside it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

const flatten = (list: KeyValue[] = []) =>
  Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );

/**
 * A small OTLP/HTTP receiver of the JSON protocol (`POST /v1/traces`, `application/json`): it keeps
 * every span it is sent, as a collector would receive them.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Content types of the exports received. */
  readonly contentTypes: string[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        this.contentTypes.push(String(req.headers['content-type']));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: {
            resource?: { attributes?: KeyValue[] };
            scopeSpans?: {
              spans?: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] })[];
            }[];
          }[];
        };
        for (const resourceSpans of body.resourceSpans ?? []) {
          const resource = flatten(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              this.spans.push({ ...span, attributes: flatten(span.attributes), resource });
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans received of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
