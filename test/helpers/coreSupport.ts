/**
 * Shared fixtures for the core tests: dev keys, genesis files, a chain builder that keeps a
 * proposer's state and a receiver's state side by side, and small tx factories.
 */
import { readFileSync } from 'node:fs';
import { applyBlock, genesisState, type ParentRef } from '../../core/applyBlock.ts';
import { buildBlock } from '../../core/buildBlock.ts';
import { attest, blockHash, type Block } from '../../core/block.ts';
import { ChainError, type ErrorCode } from '../../core/errors.ts';
import { parseGenesis, type Genesis } from '../../core/genesis.ts';
import { keyPairFromPrivateKey, type KeyPair } from '../../core/keys.ts';
import { commitDiff, sumBalances, type ChainState } from '../../core/state.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { signTx } from '../../core/txCodec.ts';

/** Reads a JSON file of `fixtures/`. */
export function fixture<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

/** The dev genesis (every fork at 0, authority dev index 0, 1000 ms slots). */
export const DEV_GENESIS: Genesis = parseGenesis(fixture('dev-genesis.json'));
/** The genesis whose forks activate late (fork 2 at 10, forks 3-6 at 1,000,000). */
export const LATE_GENESIS: Genesis = parseGenesis(fixture('late-forks-genesis.json'));

interface DevAccounts {
  mnemonic: string;
  accounts: { index: number; privateKey: string; publicKey: string; address: string }[];
}
/** fixtures/dev-accounts.json as parsed. */
export const DEV_ACCOUNTS: DevAccounts = fixture('dev-accounts.json');
/** Key pairs of dev indexes 0-9, from their fixture private keys. */
export const DEV_KEYS: KeyPair[] = DEV_ACCOUNTS.accounts.map((a) => keyPairFromPrivateKey(a.privateKey));

/** A signed TRANSFER with sensible defaults. */
export function transfer(
  key: KeyPair,
  over: Partial<{ to: string; amount: string; fee: string; nonce: number; timestamp: number }> = {},
): SignedTx {
  return signTx(
    {
      type: 'TRANSFER',
      from: key.address,
      to: over.to ?? DEV_KEYS[1].address,
      amount: over.amount ?? '1000',
      fee: over.fee ?? '10',
      nonce: over.nonce ?? 0,
      timestamp: over.timestamp ?? DEV_GENESIS.timestamp,
    },
    key,
  ) as SignedTx;
}

/** Runs `fn` and returns the ChainError it throws; fails when it throws nothing or something else. */
function chainErrorOf(fn: () => unknown): ChainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ChainError) return e;
    throw new Error(`expected a ChainError, got ${String(e)}`);
  }
  throw new Error('expected a ChainError, nothing was thrown');
}

/** `{code, message}` of the ChainError `fn` throws, for one exact assertion. */
export function refusal(fn: () => unknown): { code: ErrorCode; message: string } {
  const e = chainErrorOf(fn);
  return { code: e.code, message: e.message };
}

/** Re-hashes a tampered block header and re-signs its attestation, so only the tampering is wrong. */
export function reseal(b: Block, key: KeyPair): Block {
  const hash = blockHash(b);
  return { ...b, hash, attestations: [attest(hash, key)] };
}

/** The parent reference of a block. */
export function refOf(b: Block): ParentRef {
  return { index: b.index, hash: b.hash, timestamp: b.timestamp, stateRoot: b.stateRoot };
}

/**
 * A chain under test: the proposer builds blocks on its own state, a receiver re-applies each
 * block (after a JSON round trip, as from the network) on a separate state.
 */
export class TwoNodeChain {
  readonly g: Genesis;
  readonly proposer: ChainState;
  readonly receiver: ChainState;
  head: Block;

  constructor(g: Genesis) {
    this.g = g;
    const a = genesisState(g);
    this.proposer = a.state;
    this.receiver = genesisState(g).state;
    this.head = a.block;
  }

  /** Builds the next block in the next slot of `key` (or at `timestamp`), applies it on both states, returns it. */
  next(candidates: readonly SignedTx[], key: KeyPair = DEV_KEYS[0], timestamp = this.head.timestamp + this.g.blockTimeMs) {
    const built = buildBlock(this.proposer, refOf(this.head), candidates, key, timestamp, this.g);
    const wire = JSON.parse(JSON.stringify(built.block)) as unknown;
    const applied = applyBlock(this.receiver, refOf(this.head), wire, this.g, { now: timestamp });
    commitDiff(this.proposer, built.applied.diff);
    commitDiff(this.receiver, applied.diff);
    this.head = built.block;
    return { ...built, received: applied };
  }
}

/** emitted - (Σ balances + escrow + burned): zero when every micro-unit is accounted for. */
export function supplyGap(s: ChainState): bigint {
  return s.supply.emitted - (sumBalances(s) + s.supply.escrow + s.supply.burned);
}
