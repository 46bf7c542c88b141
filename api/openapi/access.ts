/**
 * What the document says about access: the security schemes (API keys and alert tokens, both
 * request headers), each operation's security requirement derived from the headers its
 * definition reads, and a description of every tag.
 */
import type { Endpoint } from '../endpoints/endpoint.ts';
import type { JsonSchema } from './txSchemas.ts';

/** The headers a security scheme stands for: the document names them there, not as parameters. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'X-API-Key': 'apiKey', 'X-Alert-Token': 'alertToken' };

/** The security schemes of the document. */
export const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      'An API key `ombra_live_<40 hex>_<8 hex>` (POST /api/keys/register, or `ombra keys create` for higher tiers). Optional on every ' +
      "route: where rate limits are on, requests with it count against the key's tier instead of the client IP's anonymous quota, and " +
      'a malformed, unknown or revoked key is 401. GET /api/keys/me and DELETE /api/keys/{id} need one.',
  },
  alertToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Alert-Token',
    description: 'The management token of alert subscriptions, answered once by POST /api/alerts/subscribe.',
  },
};

/** Anonymous, or with an API key: every route's requirement unless its definition needs more. */
export const ANYONE: JsonSchema[] = [{}, { apiKey: [] }];

/**
 * An operation's security requirement, from the headers its definition reads: a required
 * X-API-Key is the key alone; an alert token (required or optional) may come with a key, which
 * only sets the caller's quota. Undefined: the document's default (`ANYONE`).
 */
export function securityOf(e: Endpoint | undefined): JsonSchema[] | undefined {
  const key = e?.headers?.['X-API-Key'];
  const token = e?.headers?.['X-Alert-Token'];
  if (key?.required) return [{ apiKey: [] }];
  if (!token) return undefined;
  const withToken = [{ alertToken: [] }, { alertToken: [], apiKey: [] }];
  return token.required ? withToken : [...ANYONE, ...withToken];
}

/** What each tag groups. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  chain: 'The node and its chain: health, height, statistics, accounts, consensus parameters and search',
  network: 'Peers, validators and evidence of misbehaviour',
  streams: 'Server-sent event streams of new blocks, transactions and the mempool',
  blocks: 'Blocks by height or hash, ranges of them, and the genesis block',
  transactions: 'Submitting a signed transaction, and reading a confirmed or pending one',
  mempool: 'Transactions waiting for a block',
  wallet: 'Balances and transaction histories of addresses',
  supply: 'Token supply, holders, distribution and throughput',
  tasks: 'Inference tasks: submission, their pipeline from responses to rewards, fee estimates',
  miners: 'Registered miners and their records',
  analytics: 'Aggregates of the chain over time: overview, heat map, series and totals',
  nft: 'Art, image and audio NFTs, their metadata and their files',
  agents: 'Agent runs and their steps, and chat conversations',
  social: 'Posts, likes, replies, follows, profiles, direct messages, intents and blobs',
  web: 'The web drive: sites, releases and files, and the static sites served at /web/{alias}/',
  keys: 'API keys: register, list and revoke',
  alerts: 'Alert subscriptions: webhooks and e-mails fired by chain events',
  operator: 'Metrics, this document, its page, and the checkpoint on offer',
  explorer: 'The block explorer the node serves, and its files',
};
