/**
 * The protocol reference (docs/protocol.md), generated from the transaction schemas and the
 * chain constants so it cannot drift from the code. Pure: returns Markdown, touches no files.
 */
import { TREASURY_ADDRESS, ZERO_ADDRESS } from './address.ts';
import { MAX_BIGINT_DIGITS, MICRO } from './encoding.ts';
import { AGENT_TRANSITIONS } from './tx/agentMachine.ts';
import { TASK_TRANSITIONS } from './tx/taskMachine.ts';
import { MAX_BLOCK_TXS, MAX_TX_FUTURE_MS, STORAGE_QUOTA_PER_BLOCK } from './genesis.ts';
import { ZERO_HASH } from './hash.ts';
import { DEV_MNEMONIC, keyPairFromMnemonic } from './keys.ts';
import type { TxSchema } from './schema.ts';
import { TX_HANDLERS } from './tx/registry.ts';
import { BURN_TOKEN_DIVISOR, MIN_BURN_PER_BLOCK } from './tx/transfer.ts';
import { canonicalPayload, signTx } from './txCodec.ts';

/** The block header fields in block-hash order (checked against blockHash by a test). */
export const BLOCK_HASH_FIELDS = [
  'index',
  'previousHash',
  'timestamp',
  'proposer',
  'txRoot',
  'stateRoot',
  'tokensBurned',
  'tokensConsumed',
] as const;
/** Every field of a block as stored, served and gossiped. */
export const BLOCK_FIELDS = [
  'index',
  'hash',
  'previousHash',
  'timestamp',
  'proposer',
  'txRoot',
  'stateRoot',
  'tokensBurned',
  'tokensConsumed',
  'transactions',
  'attestations',
] as const;

/** Where the micro-units of each executed type go (a test requires one per executed type). */
export const MONEY_FLOWS: Readonly<Record<string, string>> = {
  TRANSFER: '`amount` moves from `from` to `to`; `fee` moves from `from` to the block proposer.',
  BURN: '`amount` leaves `from` and is added to `burned`; there is no fee.',
  MINER_REGISTER: '`fee` moves from `from` to the block proposer; no other funds move.',
  STORAGE_TRANSFER: '`bytes` of storage capacity move from `from` to `to` (no funds); `fee` moves from `from` to the block proposer.',
  TASK_SUBMIT: '`fee` (at least 10,000) moves from `from` into `escrow`; no proposer fee. On timeout the escrow goes back to `from`.',
  TASK_RESPONSE: '`fee` moves from the miner to the block proposer.',
  TASK_VALIDATE: '`fee` moves from the validator to the block proposer.',
  TASK_REWARD:
    "the task's escrow is released: before fork 2 all of it to the best miner; from fork 2 70% to the best miner, 5% to the validator and the remainder (25%) to `burned`. `fee` moves from the validator to the block proposer.",
  AGENT_REQUEST: '`maxFee` moves from `from` into `escrow`; there is no fee.',
  AGENT_CLAIM: '`fee` moves from the miner to the block proposer.',
  AGENT_STEP: '`fee` moves from the miner to the block proposer; the run accrues 100 of network fee (from its escrow, paid at settlement).',
  AGENT_FINISH:
    'settles the run: `minerReward` to the miner, `networkFee` to the treasury, `userRefund` to the submitter, always summing to `maxFee`, out of `escrow`. `fee` moves from the sender to the block proposer.',
  CHAT_TURN: '100 (CHAT_TURN_FEE) moves from `from` to the treasury; `fee` moves from `from` to the block proposer.',
  ART_MINT: '`fee` moves from `from` to the block proposer; the NFT is recorded for `owner`.',
};

const fmt = (n: bigint | number): string => n.toLocaleString('en-US');
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function forkText(fork: number): string {
  if (fork === 1) return 'genesis (always active)';
  const env = fork === 2 ? 'OMBRA_FORK_HEIGHT' : `OMBRA_FORK_HEIGHT_V${fork}`;
  return `fork ${fork}: active from height \`forks.${fork}\` of the genesis file (\`${env}\` overrides it)`;
}

/** One transaction type's section. */
function typeSection(schema: TxSchema, executable: boolean): string {
  const rows = [`| 1 | \`type\` | the string \`"${schema.type}"\` | required |`];
  Object.entries(schema.fields).forEach(([name, spec], i) => {
    rows.push(`| ${i + 2} | \`${name}\` | ${cell(spec.doc)} | ${spec.optional ? 'optional (left out when absent)' : 'required'} |`);
  });
  rows.push(
    `| ${rows.length + 1} | \`publicKey\` | 64 lowercase hex: the sender's Ed25519 public key; \`from\` must be its address | required |`,
  );
  return [
    `### ${schema.type}`,
    '',
    `- Family: \`${schema.family}\``,
    `- Activation: ${forkText(schema.fork)}`,
    `- Executed by this node: ${executable ? 'yes' : 'no (refused with VALIDATION_FAILED, never included in a block)'}`,
    '',
    schema.doc,
    '',
    '| # | field | rule | required |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Travel with it, outside the hashed payload: `hash` (64 lowercase hex) and `signature` (128 lowercase hex).',
  ].join('\n');
}

/** The worked TRANSFER example: payload JSON, hash and signature by dev index 0. */
function transferExample(): string {
  const key = keyPairFromMnemonic(DEV_MNEMONIC, 0);
  const tx = signTx(
    { type: 'TRANSFER', from: key.address, to: TREASURY_ADDRESS, amount: '1000000', fee: '1000', nonce: 0, timestamp: 1767225600000 },
    key,
  );
  return [
    `Dev account 0 (\`${DEV_MNEMONIC}\`, index 0) sends 1 OMBRA to the treasury:`,
    '',
    '```',
    `payload   = ${JSON.stringify(canonicalPayload(tx))}`,
    `hash      = ${tx.hash}`,
    `signature = ${tx.signature}`,
    '```',
  ].join('\n');
}

const INTRO = (): string[] => [
  '# Ombra protocol reference',
  '',
  'Generated by `protocolReference()` in `core/protocolDoc.ts` from the transaction schemas and chain constants. Do not edit by hand: run `npm run docs`.',
  '',
  '## Encoding',
  '',
  '- Hashes and public keys are 64 lowercase hex characters; signatures are 128.',
  `- Big integers (amounts, fees, balances, supply) are JSON strings of decimal digits: no sign, no leading zeros (\`"0"\` allowed), at most ${MAX_BIGINT_DIGITS} digits.`,
  '- Counters, heights, nonces and timestamps are JSON numbers: non-negative safe integers. Timestamps are Unix epoch milliseconds.',
  `- Every amount is in micro-units: 1 OMBRA = ${fmt(MICRO)} micro-units.`,
  '',
  '## Addresses',
  '',
  '- An address is `ox` + the hex of the first 20 bytes of SHA-256 of the 32-byte Ed25519 public key.',
  '- Input is case-insensitive; addresses are stored and returned lowercase.',
  `- Treasury: \`${TREASURY_ADDRESS}\`. Proposer of the genesis block: \`${ZERO_ADDRESS}\`.`,
  "- Wallets: BIP-39 English mnemonic, BIP-39 seed with an empty passphrase, BIP-32 derivation at `m/44'/7777'/0'/0/index`; the derived 32-byte private key is the Ed25519 secret key.",
  '',
  '## Transactions: canonical payload, hash and signature',
  '',
  "1. The payload is a JSON object: `type`, then the type's fields in the order of its table below, then `publicKey`. Optional fields that are absent are left out, never `null`. Unknown fields are refused.",
  '2. `hash` = hex SHA-256 of the UTF-8 bytes of `JSON.stringify(payload)`: compact, keys in that order.',
  '3. `signature` = Ed25519 signature over the UTF-8 bytes of the `hash` hex string (64 ASCII characters, not the 32 raw bytes).',
  '4. The signed transaction is the payload plus `hash` and `signature`. Key order on the wire does not matter; the hash is always computed in canonical order.',
  '',
  transferExample(),
  '',
  '## Signature rule (consensus)',
  '',
  'A transaction signature or block attestation is valid only if all of these hold:',
  '',
  '- the public key `A` decodes canonically (y < p = 2^255 - 19, and not x = 0 with the sign bit set) and is not of small order (mixed-order keys are allowed);',
  '- `R` (first 32 bytes) is canonically encoded and not of small order;',
  '- `S` (last 32 bytes, little-endian) is below L = 2^252 + 27742317777372353535851937790883648493;',
  '- the cofactorless equation holds: encode([S]B - [k]A) equals `R` byte for byte, with k = SHA-512(R || A || message) mod L.',
  '',
  'Edge-case vectors for every clause: `fixtures/ed25519-edge-cases.json`.',
  '',
  '## Validation order',
  '',
  'Every path (API, gossip, block application) checks in this order and answers the first failure: shape (`INVALID_PARAMS`), fork active at the next height (`FORK_NOT_ACTIVE`), hash (`HASH_MISMATCH`), `from` derived from `publicKey` (`VALIDATION_FAILED`), signature (`INVALID_SIGNATURE`), already pending (`DUPLICATE_TX`), nonce below the account nonce (`STALE_NONCE`: `nonce stale: tx=X, state=Y`), nonce beyond the pending run (`NONCE_GAP`), balance (`INSUFFICIENT_BALANCE`), storage (`INSUFFICIENT_STORAGE`), then type rules (`VALIDATION_FAILED`).',
  `A transaction's \`timestamp\` may be at most ${fmt(MAX_TX_FUTURE_MS)} ms after its block's timestamp.`,
  '',
  '## Nonces',
  '',
  "An account's `nonce` starts at 0 and is the nonce its next confirmed transaction must carry; each included transaction raises it by one. The mempool accepts a run of consecutive nonces per sender starting at the account nonce.",
];

/** Block format, PoA and money flow sections. */
function chainSections(executed: string[]): string[] {
  return [
    '## Blocks',
    '',
    `A block is \`{${BLOCK_FIELDS.join(', ')}}\`. At most ${fmt(MAX_BLOCK_TXS)} transactions.`,
    '',
    `- \`hash\` = hex SHA-256 of \`JSON.stringify({${BLOCK_HASH_FIELDS.join(', ')}})\`, in that order.`,
    `- \`txRoot\` = binary Merkle root over the 32-byte transaction hashes in block order: a pair hashes to SHA-256 of the concatenated raw bytes, an odd last node pairs with itself, one hash is its own root, no transactions give ${ZERO_HASH.length} zeros.`,
    '- `tokensBurned` = the micro-units burned in the block (BURN amounts and task-fee burn shares); `tokensConsumed` = the `tokensOut` + `thinkingTokens` its TASK_RESPONSE transactions report.',
    "- `attestations` holds exactly one `{validatorAddress, signature, publicKey}`: the proposer's signature over the UTF-8 bytes of the block `hash`; `publicKey` must derive `validatorAddress`, which must be the proposer.",
    '',
    '### stateRoot',
    '',
    "`stateRoot` = hex SHA-256 of (the parent's `stateRoot` hex + hex SHA-256 of `changes`), where `changes` is the compact JSON array of `[key, value]` pairs for every entry the block changed, sorted by key:",
    '',
    '- `a:<address>` -> `[balance, nonce, storageCapacity, storageUsed, minerId or ""]` (big integers as strings, nonce as a number);',
    '- `m:<minerId>`, `t:<taskId>`, `r:<agentRunId>`, `n:<tokenId>` -> the miner, task, agent run or art NFT record as JSON with keys sorted at every level (big integers inside records are strings);',
    '- `s` -> `[emitted, burned, escrow, feesPaid]` (always present).',
    '',
    `It costs O(changes) per block and commits to the whole state because it chains every change since genesis. The genesis block's \`stateRoot\` chains on the chain identity, SHA-256 of the compact JSON \`{chainId, timestamp, blockTimeMs, authorities, blockReward}\`, with the allocations as its changes.`,
    '',
    '### Genesis block',
    '',
    `Index 0, \`previousHash\` of ${ZERO_HASH.length} zeros, the genesis file's \`timestamp\`, proposer \`${ZERO_ADDRESS}\`, no transactions, no attestations, \`tokensBurned\` and \`tokensConsumed\` \`"0"\`, hashed like every other block.`,
    'Through `stateRoot` its hash commits to the chain identity (`chainId`, `timestamp`, `blockTimeMs`, `authorities`, `blockReward`) and to the allocations, so two chains never share a genesis hash. Fork heights are left out: operators may override them per node (`OMBRA_FORK_HEIGHT*`), and a node that disagrees on them is partitioned off by the blocks themselves.',
    '',
    '## Proof of authority',
    '',
    '- The genesis file lists the authorities. Slot s = floor(timestamp / `blockTimeMs`); slot s belongs to `authorities[s mod n]`.',
    "- A block is valid only from its slot's authority, in a slot later than its parent's, and with a timestamp not more than one `blockTimeMs` ahead of the receiver's clock.",
    "- Quorum is 1: the proposer's own attestation.",
    `- Every block credits its proposer with ${fmt(STORAGE_QUOTA_PER_BLOCK)} bytes of storage capacity; before fork 2 it also mints the genesis \`blockReward\` to the proposer.`,
    '',
    '## Fees and supply: where every micro-unit goes',
    '',
    ...executed.map((type) => `- ${type}: ${MONEY_FLOWS[type] ?? 'undocumented'}`),
    '- Block reward: minted to the proposer before fork 2, added to `emitted`.',
    '- Timeouts, applied at the start of each block before its transactions: a task past its deadline returns its escrow to the submitter; an agent run past its deadline settles with `minerReward` 0, its accrued network fee to the treasury and the rest to the submitter.',
    `- \`block_energy\` burns must be at least max(${MIN_BURN_PER_BLOCK}, tokensConsumed / ${fmt(BURN_TOKEN_DIVISOR)}).`,
    '- Types this node does not execute are refused, so they move nothing.',
    '- `feesPaid` counts fees paid to proposers; fees stay inside the balances.',
    '',
    'At every height: `emitted = Σ balances + escrow + burned`.',
  ];
}

/** The task and agent run state machines, as their tables in core/ define them. */
function machineSections(): string[] {
  const row = (t: { from: string | null; on: string; to: string; when: string }) =>
    `| ${t.from ?? '(none)'} | ${t.on} | ${t.to} | ${cell(t.when)} |`;
  return [
    '## Task status',
    '',
    'Every transition not in this table is refused with `422 VALIDATION_FAILED` naming the current status. In flight: `submitted`, `responses_collected`, `validated`.',
    '',
    '| from | trigger | to | condition and effect |',
    '|---|---|---|---|',
    ...TASK_TRANSITIONS.map(row),
    '',
    '## Agent run status',
    '',
    'Every transition not in this table is refused with `422 VALIDATION_FAILED` naming the current status. Settlement pays `minerReward` (at most maxFee - networkFee), `networkFee` (100 per step, to the treasury) and `userRefund` (the rest), summing to `maxFee`.',
    '',
    '| from | trigger | to | condition and effect |',
    '|---|---|---|---|',
    ...AGENT_TRANSITIONS.map(row),
  ];
}

/** The whole protocol reference as Markdown, ending with one newline. */
export function protocolReference(): string {
  const handlers = [...TX_HANDLERS.values()];
  const executed = handlers.filter((h) => h.executable).map((h) => h.schema.type);
  const summary = [
    `## Transaction types (${handlers.length})`,
    '',
    '| type | family | activation | executed |',
    '|---|---|---|---|',
    ...handlers.map(
      (h) =>
        `| [${h.schema.type}](#${h.schema.type.toLowerCase()}) | ${h.schema.family} | ${h.schema.fork === 1 ? 'genesis' : `fork ${h.schema.fork}`} | ${h.executable ? 'yes' : 'no'} |`,
    ),
  ];
  const sections = handlers.flatMap((h) => ['', typeSection(h.schema, h.executable)]);
  return `${[...INTRO(), '', ...summary, ...sections, '', ...chainSections(executed), '', ...machineSections()].join('\n')}\n`;
}
