/** Test kit for alerts: a test chain with the alert service, and real receivers on loopback. */
import { patient } from './patience.ts';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { createApp } from '../../api/app.ts';
import { AlertService, type AlertOptions } from '../../services/alerts/alertService.ts';
import { ApiKeyStore } from '../../services/apiKeys.ts';
import { openTestChain, testApiDeps, type TestChain } from './testChain.ts';

/** A request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request arrived. */
  at: number;
}

/** A webhook receiver on 127.0.0.1 with a scripted behaviour per request (0-based count). */
export interface Receiver {
  url: string;
  port: number;
  got: Received[];
  close(): Promise<void>;
}

/** How the receiver answers request number `n`. */
export type Behaviour = (n: number, req: IncomingMessage, res: ServerResponse) => void;

/** Answers `status` with a small JSON body. */
export const answer =
  (status: number, headers: Record<string, string> = {}): Behaviour =>
  (_n, _req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end('{}');
  };

export async function startReceiver(behave: Behaviour = answer(200)): Promise<Receiver> {
  const got: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const n = got.length;
      got.push({ headers: req.headers, body, at: performance.now() });
      behave(n, req, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    got,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A message the SMTP server got. */
export interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback (no TLS, no auth). */
export async function startSmtp(): Promise<{ url: string; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? (session.envelope.mailFrom as { address: string }).address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Verifies a Standard Webhooks signature with a signing secret, as a receiver's Standard Webhooks
 * library would: the key is the base64 after `whsec_` (any other string: its UTF-8 bytes).
 */
export function verifySignature(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest('base64');
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

/** A test chain with alerts and keys wired into its app. */
export interface AlertChain extends TestChain {
  alerts: AlertService;
  keys: ApiKeyStore;
  /** Re-opens the alert service (a restart of the consumer and worker). */
  reopenAlerts(opts?: Partial<AlertOptions>): Promise<AlertService>;
}

/** Opens a test chain with an alert service (private targets allowed unless said otherwise). */
export async function openAlertChain(opts: Partial<AlertOptions> = {}, dir?: string): Promise<AlertChain> {
  const chain = await openTestChain(dir ? { dir } : {});
  const keys = await new ApiKeyStore(chain.node.store).load();
  const openAlerts = async (o: Partial<AlertOptions>) => {
    const service = new AlertService(chain.node.alertPorts(), { allowPrivate: true, publicUrl: 'http://node.test', ...o });
    await service.start();
    return service;
  };
  let alerts = await openAlerts(opts);
  const ac = chain as AlertChain;
  ac.alerts = alerts;
  ac.keys = keys;
  ac.app = createApp(testApiDeps(chain.node, { keys, alerts }));
  ac.reopenAlerts = async (o = opts) => {
    await alerts.stop();
    alerts = await openAlerts(o);
    ac.alerts = alerts;
    ac.app = createApp(testApiDeps(chain.node, { keys, alerts }));
    return alerts;
  };
  const close = chain.close;
  const destroy = chain.destroy;
  ac.close = async () => {
    await ac.alerts.stop();
    await keys.stop();
    await close();
  };
  ac.destroy = async () => {
    await ac.alerts.stop();
    await keys.stop();
    await destroy();
  };
  return ac;
}

/** Subscribes through the API and returns the answer body. */
export async function subscribe(
  chain: AlertChain,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await chain.app.request('/api/alerts/subscribe', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Resolves when `cond()` holds, polling every 10 ms. */
export async function until(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + patient(timeoutMs);
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what} not met within ${patient(timeoutMs)} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The confirmation link path in a mail (quoted-printable unfolded), if any. */
export function confirmPath(m: Mail): string | undefined {
  const text = m.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /https?:\/\/[^\s/]+(\/api\/alerts\/confirm\/[0-9a-f]{64})/.exec(text)?.[1];
}

/** Waits for the next mail, which must be a confirmation, and presses its page's button (a POST to the link); answers the confirmation. */
export async function confirmByMail(chain: AlertChain, mails: Mail[], index = mails.length): Promise<any> {
  await until(() => mails.length > index, 8000, 'confirmation mail');
  const path = confirmPath(mails[index]);
  if (!path) throw new Error(`mail ${index} holds no confirmation link:\n${mails[index].raw}`);
  const res = await chain.app.request(path, { method: 'POST' });
  if (res.status !== 200) throw new Error(`confirmation answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Sends 5 micro-units from dev account 1 to `address` and commits the block; answers the tx hash. */
export async function payAndCommit(chain: AlertChain, address: string): Promise<string> {
  const tx = chain.transfer(1, address, '5');
  await chain.node.submitTx(tx);
  await chain.produce();
  return tx.hash as string;
}

/** The subscriptions of a token, as GET /api/alerts/ lists them. */
export async function listAlerts(chain: AlertChain, token: string): Promise<any[]> {
  const res = await chain.app.request('/api/alerts/', { headers: { 'X-Alert-Token': token } });
  return ((await res.json()) as { alerts: any[] }).alerts;
}
