/**
 * `ombra wallet new | address | send | balance`: mnemonics or encrypted keystores, derived
 * addresses, balances, and signed transfers sent to a node's HTTP API through the client
 * (ombra-node/client). Keys never leave this process; only the signed transaction does.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { OmbraApiError, OmbraClient, OmbraUnreachable, Wallet } from '../../client/index.ts';
import { normalizeAddress } from '../../core/address.ts';
import { DEV_MNEMONIC, derivationPath, isValidMnemonic, keyPairFromMnemonic, newMnemonic, type KeyPair } from '../../core/keys.ts';
import { TRANSFER } from '../../core/tx/transfer.ts';
import {
  API_KEY_FLAG,
  apiKeyFlag,
  helpText,
  parseFlags,
  requiredIntFlag,
  UsageError,
  type FlagSpec,
  type Flags,
  URL_FLAG,
} from '../args.ts';
import { keystoreAddress, readKeystore } from '../start/keyFile.ts';
import { encryptKeystore } from './keystore.ts';
import { AmountError, formatOmbra, parseOmbra } from '../../core/ombraAmount.ts';
import { keystorePassword } from './password.ts';
import { walletBalance } from './walletBalance.ts';

/** --mnemonic, shared by commands that sign. */
export const MNEMONIC_FLAG: FlagSpec = {
  type: 'string',
  env: 'OMBRA_MNEMONIC',
  help: 'BIP-39 mnemonic (default: the dev mnemonic; prefer the env twin, argv is visible to other users)',
};
/** --index, shared by commands that sign. */
export const INDEX_FLAG: FlagSpec = {
  type: 'string',
  env: 'OMBRA_WALLET_INDEX',
  default: '0',
  help: "account index N of m/44'/7777'/0'/0/N",
};
/** --keystore, shared by commands that sign. */
const KEYSTORE_FLAG: FlagSpec = {
  type: 'string',
  env: 'OMBRA_KEYSTORE',
  help: 'encrypted keystore file to sign with instead of a mnemonic (password: OMBRA_KEYSTORE_PASSWORD or a prompt)',
};
const JSON_FLAG: FlagSpec = { type: 'boolean', help: 'print JSON' };

const NEW_FLAGS: Record<string, FlagSpec> = {
  keystore: {
    type: 'string',
    help: 'also write account 0 to this encrypted keystore file (password: OMBRA_KEYSTORE_PASSWORD or a prompt)',
  },
  json: JSON_FLAG,
};
const ADDRESS_FLAGS: Record<string, FlagSpec> = { index: INDEX_FLAG, mnemonic: MNEMONIC_FLAG, keystore: KEYSTORE_FLAG, json: JSON_FLAG };
const SEND_FLAGS: Record<string, FlagSpec> = {
  to: { type: 'string', help: 'recipient address (ox + 40 hex, any case)' },
  amount: { type: 'string', help: 'amount in OMBRA, exact to 6 decimals (1.5 = 1500000 micro-units)' },
  'amount-micro': { type: 'string', help: 'amount in micro-units (1 OMBRA = 1000000), a positive integer, instead of --amount' },
  fee: { type: 'string', env: 'OMBRA_FEE', default: '1000', help: 'fee in micro-units' },
  index: INDEX_FLAG,
  mnemonic: MNEMONIC_FLAG,
  keystore: KEYSTORE_FLAG,
  url: URL_FLAG,
  'api-key': API_KEY_FLAG,
  'no-wait': { type: 'boolean', help: 'print the hash and exit without waiting for confirmation' },
  'timeout-s': { type: 'string', env: 'OMBRA_WAIT_TIMEOUT_S', default: '60', help: 'seconds to wait for confirmation' },
  json: JSON_FLAG,
};

const BALANCE_FLAGS: Record<string, FlagSpec> = {
  address: { type: 'string', help: 'the address to look up (default: account N of the wallet)' },
  index: INDEX_FLAG,
  mnemonic: MNEMONIC_FLAG,
  keystore: KEYSTORE_FLAG,
  url: URL_FLAG,
  'api-key': API_KEY_FLAG,
  json: JSON_FLAG,
};

const SUBCOMMANDS: Record<string, { usage: string; summary: string; flags: Record<string, FlagSpec> }> = {
  new: {
    usage: 'ombra wallet new [--keystore FILE] [--json]',
    summary:
      'Prints a fresh 24-word BIP-39 mnemonic and the address of its account 0: write the words down.\n' +
      'With --keystore FILE, account 0 is also written to FILE, encrypted (scrypt + aes-128-ctr, keystore v3).',
    flags: NEW_FLAGS,
  },
  address: {
    usage: 'ombra wallet address [--index N] [--mnemonic "..." | --keystore FILE] [--json]',
    summary: 'Prints the address and public key of account N of a mnemonic (--mnemonic, else OMBRA_MNEMONIC, else the dev mnemonic).',
    flags: ADDRESS_FLAGS,
  },
  send: {
    usage:
      'ombra wallet send --to ADDR --amount OMBRA | --amount-micro MICRO [--fee MICRO] [--index N] [--mnemonic "..." | --keystore FILE] [--url URL] [--api-key KEY] [--no-wait]',
    summary:
      'Signs a TRANSFER from account N with the next free nonce (account nonce + pending transactions),\n' +
      'submits it to POST /api/chain/tx, prints its hash, then waits until it is confirmed and prints the block.\n' +
      'A node refusal prints `error CODE: message` and exits 1.',
    flags: SEND_FLAGS,
  },
  balance: {
    usage: 'ombra wallet balance [--address ADDR] [--index N] [--mnemonic "..." | --keystore FILE] [--url URL] [--api-key KEY] [--json]',
    summary: 'Prints the balance of an address (--address, else account N of the wallet) in OMBRA and in micro-units.',
    flags: BALANCE_FLAGS,
  },
};

/** Help for `ombra wallet [sub]`. */
export function walletHelp(argv: string[]): string {
  const sub = SUBCOMMANDS[argv[0] ?? ''];
  if (sub) return helpText(sub.usage, sub.summary, sub.flags);
  return (
    'Usage: ombra wallet <new | address | send | balance> [options]\n\n' +
    Object.entries(SUBCOMMANDS)
      .map(([name, s]) => `  ${name.padEnd(10)} ${s.usage}`)
      .join('\n') +
    '\n\nRun `ombra wallet <subcommand> --help` for its options.\n'
  );
}

/** Runs `ombra wallet ...`. */
export async function walletCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub) throw new UsageError('a subcommand is required: new, address, send or balance');
  if (!SUBCOMMANDS[sub]) throw new UsageError(`unknown wallet subcommand ${sub}`);
  const { flags, positionals } = parseFlags(rest, SUBCOMMANDS[sub].flags);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  if (sub === 'new') return walletNew(flags);
  if (sub === 'address') return walletAddress(flags);
  if (sub === 'balance') return walletBalance(flags, parseUrlFlag(flags), () => ownAddress(flags));
  return walletSend(flags);
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function walletNew(flags: Flags): Promise<number> {
  const mnemonic = newMnemonic();
  const key = keyPairFromMnemonic(mnemonic, 0);
  const path = derivationPath(0);
  const file = flags.keystore as string | undefined;
  if (file) {
    if (existsSync(file)) throw new UsageError(`--keystore ${file} exists; choose a new file`);
    const store = await encryptKeystore(key, await keystorePassword(`new keystore ${file}`, { confirm: true }));
    await writeFile(file, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    process.stderr.write(`account 0 written to ${file} (encrypted)\n`);
  }
  process.stderr.write(
    'WARNING: write these 24 words down and keep them offline. Anyone who has them controls the funds;\n' +
      'whoever loses them loses the funds. This is the only time they are shown.\n',
  );
  if (flags.json) out(JSON.stringify({ mnemonic, address: key.address, path }));
  else {
    out(`mnemonic:  ${mnemonic}`);
    out(`address:   ${key.address}`);
    out(`path:      ${path}`);
  }
  return 0;
}

/** The signing key: --keystore FILE, else --index of --mnemonic / OMBRA_MNEMONIC / the dev mnemonic. */
async function signingKey(flags: Flags): Promise<{ key: KeyPair; index: number | null }> {
  if (flags.keystore) {
    if (flags.mnemonic !== undefined) throw new UsageError('give --keystore or --mnemonic, not both');
    return { key: await readKeystore(String(flags.keystore)), index: null };
  }
  return walletKey(flags);
}

/** The wallet's own address: a keystore's clear address (no password), else account --index of the mnemonic. */
function ownAddress(flags: Flags): string {
  if (!flags.keystore) return walletKey(flags).key.address;
  if (flags.mnemonic !== undefined) throw new UsageError('give --keystore or --mnemonic, not both');
  return keystoreAddress(String(flags.keystore));
}

/** The wallet key from --index and --mnemonic / OMBRA_MNEMONIC / the dev mnemonic. */
export function walletKey(flags: Flags): { key: KeyPair; index: number } {
  const index = requiredIntFlag(flags, 'index', 0, 2 ** 31 - 1);
  let mnemonic = flags.mnemonic as string | undefined;
  if (mnemonic === undefined) {
    process.stderr.write(`using the dev mnemonic "${DEV_MNEMONIC}" (set --mnemonic or OMBRA_MNEMONIC for a real wallet)\n`);
    mnemonic = DEV_MNEMONIC;
  }
  if (!isValidMnemonic(mnemonic)) throw new UsageError('the mnemonic is not a valid English BIP-39 mnemonic (word list or checksum)');
  return { key: keyPairFromMnemonic(mnemonic, index), index };
}

async function walletAddress(flags: Flags): Promise<number> {
  if (flags.keystore) {
    if (flags.mnemonic !== undefined) throw new UsageError('give --keystore or --mnemonic, not both');
    // The address is kept in clear in the keystore: no password for a read.
    const address = keystoreAddress(String(flags.keystore));
    out(flags.json ? JSON.stringify({ index: null, address, path: null }) : `address:   ${address}`);
    return 0;
  }
  const { key, index } = await signingKey(flags);
  const path = index === null ? null : derivationPath(index);
  if (flags.json) out(JSON.stringify({ index, address: key.address, publicKey: key.publicKey, path }));
  else {
    out(`address:   ${key.address}`);
    out(`publicKey: ${key.publicKey}`);
    if (path) out(`path:      ${path}`);
  }
  return 0;
}

/** A positive (or, with `allowZero`, non-negative) micro-unit amount as a canonical big-integer string. */
function microFlag(flags: Flags, name: string, allowZero: boolean): string {
  const v = flags[name];
  if (v === undefined) throw new UsageError(`--${name} is required`);
  if (typeof v !== 'string' || !/^[0-9]{1,78}$/.test(v))
    throw new UsageError(`--${name} must be an integer number of micro-units (1 OMBRA = 1000000), got ${String(v).slice(0, 80)}`);
  const n = BigInt(v);
  if (n === 0n && !allowZero) throw new UsageError(`--${name} must be positive`);
  return n.toString();
}

/** The transfer amount in micro-units: --amount in decimal OMBRA or --amount-micro, exactly one. */
function amountFlag(flags: Flags): string {
  if (flags.amount !== undefined && flags['amount-micro'] !== undefined) throw new UsageError('give --amount or --amount-micro, not both');
  if (flags.amount === undefined) return microFlag(flags, 'amount-micro', false);
  let micro: bigint;
  try {
    micro = parseOmbra(String(flags.amount));
  } catch (e) {
    if (e instanceof AmountError) throw new UsageError(`--amount: ${e.message}`);
    throw e;
  }
  if (micro === 0n) throw new UsageError('--amount must be positive');
  return micro.toString();
}

/** --url as an http(s) URL. */
export function parseUrlFlag(flags: Flags): string {
  const base = String(flags.url);
  try {
    const u = new URL(base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`--url must be an http(s) URL, got ${base.slice(0, 200)}`);
  }
  return base;
}

async function walletSend(flags: Flags): Promise<number> {
  if (flags.to === undefined) throw new UsageError('--to is required');
  const to = normalizeAddress(String(flags.to));
  if (!to) throw new UsageError(`--to must be an address: ox + 40 hex characters, got ${String(flags.to).slice(0, 80)}`);
  const amount = amountFlag(flags);
  const fee = microFlag(flags, 'fee', true);
  const timeoutS = requiredIntFlag(flags, 'timeout-s', 1, 86_400);
  const base = parseUrlFlag(flags);
  const { key } = await signingKey(flags);
  const json = flags.json === true;
  const client = new OmbraClient({ url: base, apiKey: apiKeyFlag(flags) });
  try {
    const { tx, answer } = await new Wallet(client, key).send(TRANSFER, { to, amount, fee });
    const hash = answer.hash ?? tx.hash;
    const summary = { hash, from: key.address, to, amount, amountOmbra: formatOmbra(BigInt(amount)), fee, nonce: tx.nonce };
    if (flags['no-wait']) {
      out(json ? JSON.stringify({ ...summary, status: 'pending' }) : `hash:      ${hash}`);
      return 0;
    }
    if (!json) out(`hash:      ${hash} (${summary.amountOmbra} OMBRA to ${to})`);
    process.stderr.write('waiting for confirmation...\n');
    const got = await client.waitForConfirmation(hash, timeoutS * 1000);
    if (json) out(JSON.stringify({ ...summary, status: 'confirmed', blockIndex: got.blockIndex }));
    else out(`confirmed: block ${got.blockIndex}`);
    return 0;
  } catch (e) {
    // A node refusal prints `error CODE: message`; an unreachable node or a timeout its reason.
    if (e instanceof OmbraApiError) process.stderr.write(`error ${e.code}: ${e.message}\n`);
    else if (e instanceof OmbraUnreachable || (e instanceof Error && e.message.startsWith('not confirmed')))
      process.stderr.write(`${e.message}\n`);
    else throw e;
    return 1;
  }
}
