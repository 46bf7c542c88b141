import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockHash, type BlockHeader } from '../../../core/block.ts';
import { sha256Hex } from '../../../core/hash.ts';
import { BLOCK_HASH_FIELDS, protocolReference } from '../../../core/protocolDoc.ts';
import { verifySignature } from '../../../core/signature.ts';
import { TX_HANDLERS } from '../../../core/tx/registry.ts';
import { DEV_KEYS } from '../../helpers/coreSupport.ts';

const DOC = protocolReference();

/** The Markdown of one `### TYPE` section. */
function section(type: string): string {
  const start = DOC.indexOf(`\n### ${type}\n`);
  assert.ok(start >= 0, `no section for ${type}`);
  const end = DOC.indexOf('\n##', start + 5);
  return DOC.slice(start, end);
}

test('docs/protocol.md is exactly protocolReference() (regenerate with `npm run docs`)', () => {
  const onDisk = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
  if (onDisk !== DOC) assert.fail('docs/protocol.md is out of date with core/: regenerate it with `npm run docs`');
});

test('the reference is deterministic and ends with exactly one newline', () => {
  assert.equal(protocolReference(), DOC);
  assert.ok(DOC.endsWith('\n') && !DOC.endsWith('\n\n'));
});

test("each type (the spec's 22, then the live network's) has a section with family, activation, execution and its doc", () => {
  assert.ok(TX_HANDLERS.size >= 22);
  assert.ok(DOC.includes(`## Transaction types (${TX_HANDLERS.size})`));
  for (const h of TX_HANDLERS.values()) {
    const s = section(h.schema.type);
    assert.ok(s.includes(`- Family: \`${h.schema.family}\``), h.schema.type);
    assert.ok(
      s.includes(
        h.schema.fork === 1
          ? '- Activation: genesis (always active)'
          : `- Activation: fork ${h.schema.fork}: active from height \`forks.${h.schema.fork}\``,
      ),
      h.schema.type,
    );
    assert.ok(s.includes(h.schema.doc), h.schema.type);
  }
});

test('each field table lists type first, the schema fields in canonical order, publicKey last', () => {
  for (const h of TX_HANDLERS.values()) {
    const rows = [...section(h.schema.type).matchAll(/^\| (\d+) \| `([^`]+)` \| (.*) \| (required|optional[^|]*) \|$/gm)];
    assert.deepEqual(
      rows.map((r) => r[2]),
      ['type', ...Object.keys(h.schema.fields), 'publicKey'],
      h.schema.type,
    );
    assert.deepEqual(
      rows.map((r) => Number(r[1])),
      rows.map((_, i) => i + 1),
      h.schema.type,
    );
    for (const r of rows.slice(1, -1)) {
      const spec = h.schema.fields[r[2]];
      assert.equal(r[4].startsWith('optional'), spec.optional, `${h.schema.type}.${r[2]}`);
      assert.equal(r[3], spec.doc.replace(/\|/g, '\\|'), `${h.schema.type}.${r[2]}`);
    }
  }
});

test('the task and agent state machine tables list every transition of core/', () => {
  assert.ok(DOC.includes('## Task status'));
  assert.ok(DOC.includes('| validated | TASK_REWARD | rewarded |'));
  assert.ok(DOC.includes('| pending | AGENT_CLAIM | claimed |'));
  assert.ok(DOC.includes('| running | timeout | timeout |'));
});

test('storage byte counts are not documented as micro-units', () => {
  assert.match(section('STORAGE_TRANSFER'), /\| 4 \| `bytes` \| big integer string, bytes of storage \| required \|/);
});

test('the documented block hash field order is the one blockHash uses', () => {
  const h: BlockHeader = {
    index: 3,
    previousHash: 'aa'.repeat(32),
    timestamp: 9,
    proposer: DEV_KEYS[0].address,
    txRoot: 'bb'.repeat(32),
    stateRoot: 'cc'.repeat(32),
    tokensBurned: '1',
    tokensConsumed: '2',
  };
  assert.equal(sha256Hex(JSON.stringify(Object.fromEntries(BLOCK_HASH_FIELDS.map((k) => [k, h[k]])))), blockHash(h));
  assert.ok(DOC.includes(`JSON.stringify({${BLOCK_HASH_FIELDS.join(', ')}})`));
});

test('every type says where its micro-units go', () => {
  for (const { schema } of TX_HANDLERS.values()) {
    assert.equal(typeof schema.moneyFlow, 'string', `${schema.type} moneyFlow`);
    assert.ok(DOC.includes(`- ${schema.type}: ${schema.moneyFlow}`), schema.type);
  }
  assert.ok(!DOC.includes('undocumented'));
});

test('the worked TRANSFER example hashes and verifies as the reference says', () => {
  const payload = /^payload {3}= (.*)$/m.exec(DOC)![1];
  const hash = /^hash {6}= ([0-9a-f]{64})$/m.exec(DOC)![1];
  const signature = /^signature = ([0-9a-f]{128})$/m.exec(DOC)![1];
  const parsed = JSON.parse(payload) as Record<string, unknown>;
  assert.deepEqual(Object.keys(parsed), ['type', 'from', 'to', 'amount', 'fee', 'nonce', 'timestamp', 'publicKey']);
  assert.equal(parsed.publicKey, DEV_KEYS[0].publicKey);
  assert.equal(sha256Hex(payload), hash);
  assert.ok(verifySignature(DEV_KEYS[0].publicKey, hash, signature));
});
