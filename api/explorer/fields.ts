// A transaction's fields decoded for people: every field name of every type (docs/protocol.md)
// has a way to be shown, with its unit (OMBRA, bytes, durations, tokens, pixels, UTC times) and
// ids as links to their pages; and each type's counterparty and value for transaction lists.
import { el } from './dom.ts';
import { addr, amount, badge, bytes, dataTable, duration, fullId, idLink, none, utc } from './format.ts';

const count = (unit) => (v) => `${Number(v).toLocaleString('en-US')} ${unit}`;
const plain = (v) => String(v);
const mono = (v) => el('span', { class: 'mono id' }, String(v));
const text = (v) => (String(v).length > 80 || String(v).includes('\n') ? el('pre', { tabindex: '0' }, String(v)) : String(v));
const to = (page) => (v) => fullId(String(v), `${page}/${encodeURIComponent(v)}`, page);
const blob = (v) => el('a', { href: `/api/social/blob/${v}`, class: 'mono id', rel: 'nofollow' }, String(v));
const base64Size = (v) => {
  const s = String(v);
  return `${bytes(Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0))} of base64 data (not shown)`;
};
const tokenPage = { ART_MINT: 'nft', IMAGE_MINT: 'image', AUDIO_MINT: 'audio' };

/** How each field is shown: `(value, tx) => node`. */
export const FIELD_VIEWS = {
  type: (v) => badge(v),
  hash: (v) => fullId(v, null, 'transaction hash'),
  signature: mono,
  publicKey: mono,
  nonce: plain,
  timestamp: (v) => utc(v),
  from: (v) => fullId(v, `address/${v}`, 'address'),
  to: (v) => fullId(v, `address/${v}`, 'address'),
  author: (v) => fullId(v, `address/${v}`, 'address'),
  owner: (v) => fullId(v, `address/${v}`, 'address'),
  recipient: (v) => fullId(v, `address/${v}`, 'address'),
  targetAddress: (v) => fullId(v, `address/${v}`, 'address'),
  amount: amount,
  fee: amount,
  maxFee: amount,
  tokens: amount,
  bytes: (v) => bytes(v),
  totalBytes: (v) => bytes(v),
  durationMs: (v) => duration(v),
  timeoutMs: (v) => duration(v),
  blockIndex: (v) => el('a', { href: `#/block/${v}` }, `#${v}`),
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
  tokenId: (v, t) => fullId(v, `${tokenPage[t?.type] ?? 'nft'}/${v}`, 'token id'),
  parentTurnHash: to('tx'),
  dmId: plain,
  // The alias itself is the link: a link inside text must not rely on colour alone (axe link-in-text-block).
  alias: to('alias'),
  blobId: blob,
  avatarBlobId: blob,
  contentBlobId: blob,
  promptBlobId: blob,
  blobIds: (v) => (v.length ? el('ul', { class: 'plain' }, ...v.map((b) => el('li', {}, blob(b)))) : none()),
  contentHash: mono,
  seedHash: mono,
  merkleRoot: mono,
  outputHash: mono,
  nonceHex: mono,
  ephemeralPubKey: mono,
  ciphertext: base64Size,
  chunkDataBase64: base64Size,
  dataBase64: base64Size,
  chunkIndex: plain,
  totalChunks: plain,
  stepIndex: plain,
  maxSteps: plain,
  tokensIn: count('tokens'),
  tokensOut: count('tokens'),
  thinkingTokens: count('tokens'),
  outputTokens: count('tokens'),
  totalTokensOut: count('tokens'),
  tokensConsumed: count('tokens'),
  width: count('px'),
  height: count('px'),
  sampleRate: count('Hz'),
  enabled: (v) => (v ? 'yes' : 'no'),
  contentType: mono,
  path: mono,
  format: plain,
  outcome: badge,
  reaction: badge,
  reason: badge,
  role: badge,
  taskType: badge,
  name: text,
  displayName: text,
  bio: text,
  body: text,
  prompt: text,
  content: text,
  thinking: text,
  svg: text,
  finalAnswerInline: text,
  model: text,
  modelHint: text,
  modelInfo: text,
  hardwareTier: text,
  capabilities: (v) => (v.length ? el('span', { class: 'tags' }, ...v.map(badge)) : none()),
  toolsWhitelist: (v) => (v.length ? el('span', { class: 'tags' }, ...v.map(badge)) : none()),
  rewards: (v) =>
    dataTable(
      'Rewards',
      ['address', 'amount', 'reason'],
      v.map((r) => [addr(r.address), amount(r.amount), badge(r.reason)]),
    ),
  scores: (v) =>
    dataTable(
      'Scores',
      ['miner', 'score'],
      v.map((s) => [idLink(`miner/${s.minerId}`, s.minerId), String(s.score)]),
    ),
  manifest: (v) =>
    dataTable(
      'Manifest',
      ['path', 'file'],
      v.map((m) => [el('span', { class: 'mono' }, m.path), idLink(`file/${m.fileId}`, m.fileId)]),
    ),
  toolCalls: (v) =>
    dataTable(
      'Tool calls',
      ['tool', 'ok', 'duration', 'arguments hash', 'result hash'],
      v.map((c) => [c.name, c.ok ? 'yes' : 'no', duration(c.durationMs), mono(c.argsHash), mono(c.resultHash)]),
    ),
  attachments: (v) =>
    dataTable(
      'Attachments',
      ['type', 'blob'],
      v.map((a) => [a.type, blob(a.blobId)]),
    ),
};

/** A field's value shown with its unit; unknown fields as JSON text. */
export function fieldView(name, value, tx) {
  if (value === null || value === undefined) return none();
  const view = FIELD_VIEWS[name];
  if (view) return view(value, tx);
  return typeof value === 'object' ? el('pre', { tabindex: '0' }, JSON.stringify(value, null, 2)) : String(value);
}

/** The field each type moves value to, and the value it moves: what lists show in their columns. */
const FLOWS = {
  TRANSFER: { to: 'to', value: (t) => amount(t.amount) },
  BURN: { value: (t) => amount(t.amount) },
  STORAGE_TRANSFER: { to: 'to', value: (t) => bytes(t.bytes) },
  SOCIAL_LIKE_INTENT: { to: 'author', value: (t) => amount(t.tokens) },
  SOCIAL_FOLLOW_SET: { to: 'targetAddress' },
  SOCIAL_DM_SEND: { to: 'recipient' },
  ART_MINT: { to: 'owner' },
  IMAGE_MINT: { to: 'owner' },
  AUDIO_MINT: { to: 'owner' },
  AGENT_REQUEST: { value: (t) => amount(t.maxFee) },
  TASK_SUBMIT: { value: (t) => amount(t.fee) },
};

/** The addresses a transaction sends value or a message to (TASK_REWARD: every rewarded address). */
function recipientsOf(t) {
  if (t.type === 'TASK_REWARD') return (t.rewards ?? []).map((r) => r.address);
  // A reaction's author is the liked post's, when the page looked it up (withPostAuthors).
  if (t.type === 'SOCIAL_REACTION_SET') return t.postAuthor ? [t.postAuthor] : [];
  const f = FLOWS[t.type]?.to;
  return f && t[f] ? [t[f]] : [];
}

/** The value a transaction moves as a node (OMBRA, bytes), for `address` when it is a reward's receiver. */
export function movedValue(t, address) {
  if (t.type === 'TASK_REWARD') {
    const mine = (t.rewards ?? []).filter((r) => !address || r.address === address);
    return mine.length ? amount(mine.reduce((s, r) => s + BigInt(r.amount), 0n).toString()) : none();
  }
  return FLOWS[t.type]?.value?.(t) ?? none();
}

/** Out, in or self, seen from `address`. */
export function directionOf(t, address) {
  const out = t.from === address;
  const into = recipientsOf(t).includes(address);
  return out && into ? 'self' : out ? 'out' : 'in';
}

/** What a transaction points at besides an address, as a link (a post, a task, a run, a site...). */
function subjectOf(t) {
  for (const [field, page] of [
    ['targetPostId', 'post'],
    ['postId', 'post'],
    ['taskId', 'task'],
    ['agentRunId', 'run'],
    ['conversationId', 'conversation'],
    ['siteId', 'site'],
    ['fileId', 'file'],
    ['tokenId', tokenPage[t.type]],
  ])
    if (t[field] && page) return idLink(`${page}/${encodeURIComponent(t[field])}`, t[field], 8);
  return null;
}

/** The counterparty cell of a list: the recipient (or "n recipients"), else what the transaction is about. */
export function counterparty(t, address) {
  if (address && t.from !== address) return addr(t.from);
  const r = recipientsOf(t);
  if (r.length === 1) return addr(r[0]);
  if (r.length > 1) return `${r.length} recipients`;
  return subjectOf(t) ?? none();
}
