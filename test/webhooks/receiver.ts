/**
 * A real webhook receiver on loopback for the tests, with its own Standard Webhooks verifier
 * written from the spec (not the sender's code): HMAC-SHA256 over "{id}.{timestamp}.{body}",
 * keyed with the base64-decoded secret after `whsec_`, compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  base: string;
  received: Received[];
  /** Statuses to answer on `path`, in order; the last one repeats. Default 200. */
  plan(path: string, statuses: number[]): void;
  on(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const plans = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const plan = plans.get(path) ?? [200];
      const status = plan.length > 1 ? plan.shift()! : plan[0];
      res.statusCode = status;
      res.end(status >= 300 ? 'nope' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    plan: (path, statuses) => void plans.set(path, [...statuses]),
    on: (path) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Verifies one received request against `secret`; returns the parsed body or throws why not. */
export function verifyStandardWebhook(secret: string, r: Received, toleranceSec = 300): any {
  const id = r.headers['webhook-id'];
  const ts = r.headers['webhook-timestamp'];
  const sigs = r.headers['webhook-signature'];
  if (!id || !ts || !sigs) throw new Error('missing webhook-* headers');
  if (!/^\d+$/.test(ts)) throw new Error('timestamp is not unix seconds');
  if (Math.abs(Number(ts) - Date.now() / 1000) > toleranceSec) throw new Error('timestamp outside tolerance');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest();
  const ok = sigs.split(' ').some((s) => {
    const [version, b64] = s.split(',');
    if (version !== 'v1' || !b64) return false;
    const got = Buffer.from(b64, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!ok) throw new Error('no valid v1 signature');
  return JSON.parse(r.body);
}

export interface BlackHole {
  /** `base` + `/hook`. */
  url: string;
  base: string;
  /** Requests waiting now, the most at once, and all there were. */
  open: number;
  peak: number;
  total: number;
  close(): Promise<void>;
}

/** An HTTP receiver that reads each request and never answers it. */
export async function blackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  const hole = { url: '', base: '', open: 0, peak: 0, total: 0, close: async () => {} };
  const server: Server = createServer((req) => {
    hole.open++;
    hole.total++;
    hole.peak = Math.max(hole.peak, hole.open);
    req.socket.on('close', () => hole.open--);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hole.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hole.url = `${hole.base}/hook`;
  hole.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return hole;
}
