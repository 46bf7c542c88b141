// A transaction's fields decoded for people: every field of every type (docs/protocol.md) has a
// way to be shown, with its unit (OMBRA, bytes, durations, tokens, pixels, UTC times) and ids as
// links to their pages; and each type's counterparty and value for transaction lists. What the
// registry says (each field's kind, each type's recipients: api/explorerTxTables.ts) is read from it; the
// names below are the fields whose kind alone does not say how to show them.
import type { AnyTx } from './chainEvents.ts';
import { type Child, el } from './dom.ts';
import { addr, amount, badge, bytes, dataTable, duration, fullId, idLink, none, utc } from './format.ts';
import { FIELD_KINDS, RECIPIENT_FIELDS } from '../explorerTxTables.ts';
import { microOf } from './text.ts';

/** How a field is shown: its value (and the transaction it belongs to) as page content. */
type View = (value: unknown, tx?: AnyTx) => Child;

/** An object of a list field (rewards, scores, ...), or null. */
const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The objects of a list field. */
const records = (v: unknown) => (Array.isArray(v) ? v.filter(isRecord) : []);
/** The strings of a list field. */
const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

const count = (unit: string) => (v: unknown) => `${Number(v).toLocaleString('en-US')} ${unit}`;
const plain: View = (v) => String(v);
const mono: View = (v) => el('span', { class: 'mono id' }, String(v));
const text: View = (v) => (String(v).length > 80 || String(v).includes('\n') ? el('pre', { tabindex: '0' }, String(v)) : String(v));
const to =
  (page: string): View =>
  (v) =>
    fullId(String(v), `${page}/${encodeURIComponent(String(v))}`, page);
const address: View = (v) => fullId(String(v), `address/${String(v)}`, 'address');
const blob = (v: unknown) => el('a', { href: `/api/social/blob/${String(v)}`, class: 'mono id', rel: 'nofollow' }, String(v));
const base64Size: View = (v) => {
  const s = String(v);
  return `${bytes(Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0))} of base64 data (not shown)`;
};
const tags: View = (v) => (strings(v).length ? el('span', { class: 'tags' }, ...strings(v).map(badge)) : none());
/** The page of a token by its minting type. */
const TOKEN_PAGE: Readonly<Record<string, string>> = { ART_MINT: 'nft', IMAGE_MINT: 'image', AUDIO_MINT: 'audio' };
const tokenPage = (type: string | undefined) => (type && Object.hasOwn(TOKEN_PAGE, type) ? TOKEN_PAGE[type] : undefined);

/** How a field of each kind (core/schema.ts) is shown, unless its name says more (FIELD_VIEWS). */
export const KIND_VIEWS: Readonly<Partial<Record<string, View>>> = {
  address,
  amount,
  uint: plain,
  id: plain,
  hex: mono,
  pattern: mono,
  enum: badge,
  bool: (v) => (v ? 'yes' : 'no'),
  text,
  base64: base64Size,
  strings: tags,
};

/** How each field is shown where its kind does not say enough (ids that link, units, lists, times). */
export const FIELD_VIEWS: Readonly<Partial<Record<string, View>>> = {
  type: badge,
  hash: (v) => fullId(String(v), null, 'transaction hash'),
  signature: mono,
  publicKey: mono,
  timestamp: (v) => utc(v),
  // Fields of other records shown with the same views (a run's tokens and tools, a task's rewards).
  from: address,
  // A funded like's tokens are micro-OMBRA; a storage transfer's bytes are bytes.
  tokens: amount,
  bytes: (v) => bytes(v),
  totalBytes: (v) => bytes(v),
  durationMs: (v) => duration(v),
  timeoutMs: (v) => duration(v),
  blockIndex: (v) => el('a', { href: `#/block/${String(v)}` }, `#${String(v)}`),
  taskId: to('task'),
  agentRunId: to('run'),
  conversationId: to('conversation'),
  postId: to('post'),
  targetPostId: to('post'),
  parentPostId: to('post'),
  siteId: to('site'),
  releaseId: to('release'),
  fileId: to('file'),
  minerId: to('miner'),
  bestMinerId: to('miner'),
  tokenId: (v, t) => fullId(String(v), `${tokenPage(t?.type) ?? 'nft'}/${String(v)}`, 'token id'),
  parentTurnHash: to('tx'),
  // The alias itself is the link: a link inside text must not rely on colour alone (axe link-in-text-block).
  alias: to('alias'),
  blobId: blob,
  avatarBlobId: blob,
  contentBlobId: blob,
  promptBlobId: blob,
  blobIds: (v) => (strings(v).length ? el('ul', { class: 'plain' }, ...strings(v).map((b) => el('li', {}, blob(b)))) : none()),
  tokensIn: count('tokens'),
  tokensOut: count('tokens'),
  thinkingTokens: count('tokens'),
  outputTokens: count('tokens'),
  totalTokensOut: count('tokens'),
  tokensConsumed: count('tokens'),
  width: count('px'),
  height: count('px'),
  sampleRate: count('Hz'),
  toolsWhitelist: tags,
  rewards: (v) =>
    dataTable(
      'Rewards',
      ['address', 'amount', 'reason'],
      records(v).map((r) => [addr(r.address), amount(r.amount), badge(r.reason)]),
    ),
  scores: (v) =>
    dataTable(
      'Scores',
      ['miner', 'score'],
      records(v).map((s) => [idLink(`miner/${String(s.minerId)}`, s.minerId), String(s.score)]),
    ),
  manifest: (v) =>
    dataTable(
      'Manifest',
      ['path', 'file'],
      records(v).map((m) => [el('span', { class: 'mono' }, String(m.path)), idLink(`file/${String(m.fileId)}`, m.fileId)]),
    ),
  toolCalls: (v) =>
    dataTable(
      'Tool calls',
      ['tool', 'ok', 'duration', 'arguments hash', 'result hash'],
      records(v).map((c) => [String(c.name), c.ok ? 'yes' : 'no', duration(c.durationMs), mono(c.argsHash), mono(c.resultHash)]),
    ),
  attachments: (v) =>
    dataTable(
      'Attachments',
      ['type', 'blob'],
      records(v).map((a) => [String(a.type), blob(a.blobId)]),
    ),
};

/** The view of field `name` (of `tx`'s type, when given): by its name, else by its kind; undefined when neither says. */
export function viewOf(name: string, tx?: AnyTx): View | undefined {
  const kind = tx && Object.hasOwn(FIELD_KINDS, tx.type) ? FIELD_KINDS[tx.type][name] : undefined;
  return FIELD_VIEWS[name] ?? (kind === undefined ? undefined : KIND_VIEWS[kind]);
}

/** A field's value shown with its unit; unknown fields as JSON text. */
export function fieldView(name: string, value: unknown, tx?: AnyTx): Child {
  if (value === null || value === undefined) return none();
  const view = viewOf(name, tx);
  if (view) return view(value, tx);
  return typeof value === 'object' ? el('pre', { tabindex: '0' }, JSON.stringify(value, null, 2)) : String(value);
}

/** The value each type moves, shown: what lists show in their value column. */
const VALUES: Readonly<Partial<Record<string, (t: AnyTx) => Child>>> = {
  TRANSFER: (t) => amount(t.amount),
  BURN: (t) => amount(t.amount),
  STORAGE_TRANSFER: (t) => bytes(t.bytes),
  SOCIAL_LIKE_INTENT: (t) => amount(t.tokens),
  AGENT_REQUEST: (t) => amount(t.maxFee),
  TASK_SUBMIT: (t) => amount(t.fee),
};

/** The addresses a transaction sends value or a message to (TASK_REWARD: every rewarded address). */
export function recipientsOf(t: AnyTx): string[] {
  if (t.type === 'TASK_REWARD') return records(t.rewards).map((r) => String(r.address));
  // A reaction's author is the liked post's, when the page looked it up (withPostAuthors).
  if (t.type === 'SOCIAL_REACTION_SET') return typeof t.postAuthor === 'string' ? [t.postAuthor] : [];
  const names = Object.hasOwn(RECIPIENT_FIELDS, t.type) ? RECIPIENT_FIELDS[t.type] : [];
  return names.flatMap((f) => (typeof t[f] === 'string' && t[f] ? [t[f]] : []));
}

/** The micro-units a TASK_REWARD pays, to `address` only when given. */
export function rewardTo(t: AnyTx, address?: string): bigint | null {
  const mine = records(t.rewards).filter((r) => !address || r.address === address);
  return mine.length ? mine.reduce((s, r) => s + (microOf(r.amount) ?? 0n), 0n) : null;
}

/** The value a transaction moves as a node (OMBRA, bytes), for `address` when it is a reward's receiver. */
export function movedValue(t: AnyTx, address?: string): Child {
  if (t.type === 'TASK_REWARD') {
    const paid = rewardTo(t, address);
    return paid === null ? none() : amount(paid.toString());
  }
  return VALUES[t.type]?.(t) ?? none();
}

/** Out, in or self, seen from `address`. */
export function directionOf(t: AnyTx, address: string): 'out' | 'in' | 'self' {
  const out = t.from === address;
  const into = recipientsOf(t).includes(address);
  return out && into ? 'self' : out ? 'out' : 'in';
}

/** What a transaction points at besides an address, as a link (a post, a task, a run, a site...). */
function subjectOf(t: AnyTx): HTMLElement | null {
  const subjects: [string, string | undefined][] = [
    ['targetPostId', 'post'],
    ['postId', 'post'],
    ['taskId', 'task'],
    ['agentRunId', 'run'],
    ['conversationId', 'conversation'],
    ['siteId', 'site'],
    ['fileId', 'file'],
    ['tokenId', tokenPage(t.type)],
  ];
  for (const [field, page] of subjects) {
    const id = t[field];
    if (id && page) return idLink(`${page}/${encodeURIComponent(String(id))}`, id, 8);
  }
  return null;
}

/** The counterparty cell of a list: the recipient (or "n recipients"), else what the transaction is about. */
export function counterparty(t: AnyTx, address?: string): Child {
  if (address && t.from !== address) return addr(t.from);
  const r = recipientsOf(t);
  if (r.length === 1) return addr(r[0]);
  if (r.length > 1) return `${r.length} recipients`;
  return subjectOf(t) ?? none();
}
