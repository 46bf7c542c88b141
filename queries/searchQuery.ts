/**
 * The explorer's search query, read once into every form an id of the chain can take: a block
 * height, a 64-hex hash (block, transaction, run, conversation, token, miner, file, blob), a
 * task id, an address or its prefix, a record id (post, site, release, DM), a web alias and a
 * name prefix (profiles and miners). Pure: queries/searchQueries.ts looks each form up.
 */
import { ChainError } from '../core/errors.ts';

/** Longest accepted search query. */
export const MAX_SEARCH_QUERY = 128;

/** What a query can name; absent: the query cannot be one. */
export interface SearchQuery {
  /** The query as typed, trimmed (record ids are case-sensitive). */
  text: string;
  /** The query lowercased (hashes, addresses, aliases, name prefixes). */
  lower: string;
  /** A block height. */
  height?: number;
  /** A 64-hex id, lowercased. */
  hash?: string;
  /** A task id: 8..64 of [A-Za-z0-9_-] (a task's id is its submission hash's first 32 hex). */
  taskId?: string;
  /** A full address, lowercased. */
  address?: string;
  /** An address prefix (2..39 hex, with `ox`, `0x` or neither), always with `ox`. */
  addressPrefix?: string;
  /** A transaction hash prefix: 2..63 hex (with or without `0x`), lowercased. */
  txPrefix?: string;
  /** A record id as typed: 1..64 of [A-Za-z0-9_-] (posts, sites, releases, DMs). */
  recordId?: string;
  /** A web alias: a DNS label of 3..63 characters. */
  alias?: string;
  /** A name prefix for profiles and miners: the lowercased query, 2 characters or more. */
  namePrefix?: string;
}

const HEIGHT_RE = /^[0-9]{1,15}$/;
const HASH_RE = /^[0-9a-f]{64}$/;
const ADDRESS_RE = /^ox[0-9a-f]{40}$/;
const ADDRESS_PREFIX_RE = /^(?:ox)?[0-9a-f]{2,39}$/;
const HEX_PREFIX_RE = /^[0-9a-f]{2,63}$/;
const RECORD_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const TASK_ID_RE = /^[A-Za-z0-9_-]{8,64}$/;
const ALIAS_RE = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;

/** Reads a search query; throws INVALID_PARAMS when it is empty or longer than MAX_SEARCH_QUERY once trimmed. */
export function parseSearchQuery(raw = ''): SearchQuery {
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_SEARCH_QUERY) {
    throw new ChainError('INVALID_PARAMS', `q must be 1..${MAX_SEARCH_QUERY} characters`);
  }
  const lower = text.toLowerCase();
  const q: SearchQuery = { text, lower };
  // Ethereum's `0x` form of a hash or an address (Ombra's addresses start with `ox`): the hex after it.
  const hex = /^0x[0-9a-f]+$/.test(lower) ? lower.slice(2) : lower;
  if (HEIGHT_RE.test(text) && Number.isSafeInteger(Number(text))) q.height = Number(text);
  if (HASH_RE.test(hex)) q.hash = hex;
  if (TASK_ID_RE.test(text)) q.taskId = text;
  if (ADDRESS_RE.test(lower)) q.address = lower;
  else if (/^[0-9a-f]{40}$/.test(hex)) q.address = `ox${hex}`;
  else if (ADDRESS_PREFIX_RE.test(hex)) q.addressPrefix = hex.startsWith('ox') ? hex : `ox${hex}`;
  if (HEX_PREFIX_RE.test(hex)) q.txPrefix = hex;
  if (RECORD_ID_RE.test(text)) q.recordId = text;
  if (ALIAS_RE.test(lower)) q.alias = lower;
  if (lower.length >= 2) q.namePrefix = lower;
  return q;
}
