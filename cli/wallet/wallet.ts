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
import { apiKeyFlag, type FlagSpecs, type Flags, parseFlags, requiredIntFlag, UsageError } from '../args.ts';
import { keystoreAddress, readKeystore } from '../start/keyFile.ts';
import { encryptKeystore } from './keystore.ts';
import { AmountError, formatOmbra, parseOmbra } from '../../core/ombraAmount.ts';
import { keystorePassword } from './password.ts';
import { walletBalance } from './walletBalance.ts';
import { ADDRESS_FLAGS, BALANCE_FLAGS, isWalletSub, type KeyFlags, NEW_FLAGS, SEND_FLAGS } from './walletFlags.ts';

/** Runs `ombra wallet ...`. */
export async function walletCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub) throw new UsageError('a subcommand is required: new, address, send or balance');
  if (!isWalletSub(sub)) throw new UsageError(`unknown wallet subcommand ${sub}`);
  if (sub === 'new') return walletNew(flagsOnly(rest, NEW_FLAGS));
  if (sub === 'address') return walletAddress(flagsOnly(rest, ADDRESS_FLAGS));
  if (sub === 'balance') {
    const flags = flagsOnly(rest, BALANCE_FLAGS);
    return walletBalance(flags, parseUrlFlag(flags), () => ownAddress(flags));
  }
  return walletSend(flagsOnly(rest, SEND_FLAGS));
}

/** The flags of `argv`, which takes no positional argument. */
function flagsOnly<const S extends FlagSpecs>(argv: string[], specs: S): Flags<S> {
  const { flags, positionals } = parseFlags(argv, specs);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  return flags;
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function walletNew(flags: Flags<typeof NEW_FLAGS>): Promise<number> {
  const mnemonic = newMnemonic();
  const key = keyPairFromMnemonic(mnemonic, 0);
  const path = derivationPath(0);
  const file = flags.keystore;
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
async function signingKey(flags: KeyFlags): Promise<{ key: KeyPair; index: number | null }> {
  if (flags.keystore) {
    if (flags.mnemonic !== undefined) throw new UsageError('give --keystore or --mnemonic, not both');
    return { key: await readKeystore(flags.keystore), index: null };
  }
  return walletKey(flags);
}

/** The wallet's own address: a keystore's clear address (no password), else account --index of the mnemonic. */
function ownAddress(flags: KeyFlags): string {
  if (!flags.keystore) return walletKey(flags).key.address;
  if (flags.mnemonic !== undefined) throw new UsageError('give --keystore or --mnemonic, not both');
  return keystoreAddress(flags.keystore);
}

/** The wallet key from --index and --mnemonic / OMBRA_MNEMONIC / the dev mnemonic. */
export function walletKey(flags: Omit<KeyFlags, 'keystore'>): { key: KeyPair; index: number } {
  const index = requiredIntFlag(flags, 'index', 0, 2 ** 31 - 1);
  let mnemonic = flags.mnemonic;
  if (mnemonic === undefined) {
    process.stderr.write(`using the dev mnemonic "${DEV_MNEMONIC}" (set --mnemonic or OMBRA_MNEMONIC for a real wallet)\n`);
    mnemonic = DEV_MNEMONIC;
  }
  if (!isValidMnemonic(mnemonic)) throw new UsageError('the mnemonic is not a valid English BIP-39 mnemonic (word list or checksum)');
  return { key: keyPairFromMnemonic(mnemonic, index), index };
}

async function walletAddress(flags: Flags<typeof ADDRESS_FLAGS>): Promise<number> {
  if (flags.keystore) {
    if (flags.mnemonic !== undefined) throw new UsageError('give --keystore or --mnemonic, not both');
    // The address is kept in clear in the keystore: no password for a read.
    const address = keystoreAddress(flags.keystore);
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
function microFlag(v: string | undefined, name: string, allowZero: boolean): string {
  if (v === undefined) throw new UsageError(`--${name} is required`);
  if (!/^[0-9]{1,78}$/.test(v))
    throw new UsageError(`--${name} must be an integer number of micro-units (1 OMBRA = 1000000), got ${v.slice(0, 80)}`);
  const n = BigInt(v);
  if (n === 0n && !allowZero) throw new UsageError(`--${name} must be positive`);
  return n.toString();
}

/** The transfer amount in micro-units: --amount in decimal OMBRA or --amount-micro, exactly one. */
function amountFlag(flags: Flags<typeof SEND_FLAGS>): string {
  if (flags.amount !== undefined && flags['amount-micro'] !== undefined) throw new UsageError('give --amount or --amount-micro, not both');
  if (flags.amount === undefined) return microFlag(flags['amount-micro'], 'amount-micro', false);
  let micro: bigint;
  try {
    micro = parseOmbra(flags.amount);
  } catch (e) {
    if (e instanceof AmountError) throw new UsageError(`--amount: ${e.message}`);
    throw e;
  }
  if (micro === 0n) throw new UsageError('--amount must be positive');
  return micro.toString();
}

/** --url as an http(s) URL. */
export function parseUrlFlag(flags: { readonly url: string }): string {
  const base = flags.url;
  try {
    const u = new URL(base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`--url must be an http(s) URL, got ${base.slice(0, 200)}`);
  }
  return base;
}

async function walletSend(flags: Flags<typeof SEND_FLAGS>): Promise<number> {
  if (flags.to === undefined) throw new UsageError('--to is required');
  const to = normalizeAddress(flags.to);
  if (!to) throw new UsageError(`--to must be an address: ox + 40 hex characters, got ${flags.to.slice(0, 80)}`);
  const amount = amountFlag(flags);
  const fee = microFlag(flags.fee, 'fee', true);
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
