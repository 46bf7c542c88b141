/**
 * Validation of POST /api/alerts/subscribe and POST /api/keys/register bodies. Pure: every
 * refusal is INVALID_PARAMS with a message that names the field and what it must be. (Whether
 * a webhook host resolves to a public address is checked afterwards, with DNS, by alertService.ts.)
 */
import { normalizeAddress } from '../../core/address.ts';
import { ChainError } from '../../core/errors.ts';
import { TRIGGERS, type Trigger } from './alertMatch.ts';

/** A valid subscribe request. */
export interface SubscribeInput {
  trigger: Trigger;
  params: { address?: string };
  channel: 'webhook' | 'email';
  /** A normalised URL (webhook) or a lowercase-domain e-mail address. */
  target: string;
}

/** Longest webhook URL. */
export const MAX_URL = 2048;
/** Longest e-mail address (RFC 5321 path limit). */
export const MAX_EMAIL = 254;
/** Longest key label. */
export const MAX_LABEL = 64;

const bad = (msg: string): never => {
  throw new ChainError('INVALID_PARAMS', msg);
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function onlyKeys(o: Record<string, unknown>, allowed: string[], what: string): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) bad(`${what}: unknown field ${JSON.stringify(k.slice(0, 40))} (allowed: ${allowed.join(', ') || 'none'})`);
}

/** Which params each trigger takes, and whether `address` is required. */
const PARAMS: Record<Trigger, { address: 'required' | 'optional' }> = {
  address_tx: { address: 'required' },
  miner_block: { address: 'optional' },
  reward: { address: 'optional' },
  agent_finished: { address: 'required' },
};

/** A webhook URL: http(s), a host, no credentials, at most MAX_URL characters. */
export function parseWebhookUrl(s: unknown): URL {
  if (typeof s !== 'string' || s.length === 0) return bad('target must be a URL string for channel webhook');
  if (s.length > MAX_URL) bad(`target URL must be at most ${MAX_URL} characters`);
  if (/[\s\x00-\x1f\x7f]/.test(s)) bad('target URL must not contain whitespace or control characters');
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return bad('target must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') bad('target URL must use http:// or https://');
  if (!url.hostname) bad('target URL must name a host');
  if (url.username || url.password) bad('target URL must not carry credentials (user:password@)');
  if (url.hash) bad('target URL must not have a #fragment');
  return url;
}

/** An e-mail address: one @, a dotted domain, no spaces, quotes or angle brackets. */
export function parseEmail(s: unknown): string {
  if (typeof s !== 'string' || s.length === 0) return bad('target must be an e-mail address for channel email');
  if (s.length > MAX_EMAIL) bad(`target e-mail address must be at most ${MAX_EMAIL} characters`);
  const m = /^([A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64})@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+)$/.exec(s);
  if (!m) return bad('target must be an e-mail address like name@example.com');
  const [, local, domain] = m;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) bad('target e-mail address has a malformed local part');
  if (domain.split('.').some((l) => l.startsWith('-') || l.endsWith('-'))) bad('target e-mail address has a malformed domain');
  if (!/[A-Za-z]/.test(domain.slice(domain.lastIndexOf('.') + 1))) bad('target e-mail domain must end in a name, not a number');
  return `${local}@${domain.toLowerCase()}`;
}

/** Whether `s` names a trigger. */
const isTrigger = (s: string): s is Trigger => TRIGGERS.some((t) => t === s);

/** Validates a subscribe body. */
export function parseSubscribe(body: unknown): SubscribeInput {
  if (!isObject(body)) return bad('body must be a JSON object {trigger, params, channel, target}');
  onlyKeys(body, ['trigger', 'params', 'channel', 'target'], 'body');
  const trigger = body.trigger;
  if (typeof trigger !== 'string' || !isTrigger(trigger)) return bad(`trigger must be one of ${TRIGGERS.join(', ')}`);
  const t = trigger;
  const rule = PARAMS[t];
  const rawParams = body.params === undefined ? {} : body.params;
  if (!isObject(rawParams)) return bad('params must be an object');
  onlyKeys(rawParams, ['address'], `params of ${t}`);
  const params: { address?: string } = {};
  if (rawParams.address === undefined) {
    if (rule.address === 'required') bad(`params.address is required for trigger ${t}`);
  } else {
    const a = typeof rawParams.address === 'string' && rawParams.address.length <= 42 ? normalizeAddress(rawParams.address) : null;
    if (!a) return bad('params.address must be an address: ox + 40 hex characters');
    params.address = a;
  }
  const channel = body.channel;
  if (channel !== 'webhook' && channel !== 'email') return bad('channel must be webhook or email');
  const target = channel === 'webhook' ? parseWebhookUrl(body.target).href : parseEmail(body.target);
  return { trigger: t, params, channel, target };
}

/** A valid key registration. */
export interface RegisterInput {
  tier: number;
  label: string;
}

/** Validates a register body; only tier 1 is self-service. */
export function parseRegister(body: unknown): RegisterInput {
  if (body === undefined || body === null) return { tier: 1, label: '' };
  if (!isObject(body)) return bad('body must be a JSON object {tier, label}');
  onlyKeys(body, ['tier', 'label'], 'body');
  const tier = body.tier === undefined ? 1 : body.tier;
  if (typeof tier !== 'number' || !Number.isInteger(tier) || tier < 1) return bad('tier must be a positive integer (1 is the free tier)');
  const label = body.label === undefined ? '' : body.label;
  if (typeof label !== 'string') return bad('label must be a string');
  if (label.length > MAX_LABEL) bad(`label must be at most ${MAX_LABEL} characters`);
  if (/[\x00-\x1f\x7f]/.test(label)) bad('label must not contain control characters');
  return { tier, label };
}
