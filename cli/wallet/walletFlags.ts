/** The flags and help of `ombra wallet`'s subcommands (cli/wallet/wallet.ts runs them). */
import { API_KEY_FLAG, type FlagSpec, type FlagSpecs, type Flags, flagSpecs, helpText, URL_FLAG } from '../args.ts';

/** --mnemonic, shared by commands that sign. */
export const MNEMONIC_FLAG = {
  type: 'string',
  env: 'OMBRA_MNEMONIC',
  help: 'BIP-39 mnemonic (default: the dev mnemonic; prefer the env twin, argv is visible to other users)',
} satisfies FlagSpec;
/** --index, shared by commands that sign. */
export const INDEX_FLAG = {
  type: 'string',
  env: 'OMBRA_WALLET_INDEX',
  default: '0',
  help: "account index N of m/44'/7777'/0'/0/N",
} satisfies FlagSpec;
/** --keystore, shared by commands that sign. */
const KEYSTORE_FLAG = {
  type: 'string',
  env: 'OMBRA_KEYSTORE',
  help: 'encrypted keystore file to sign with instead of a mnemonic (password: OMBRA_KEYSTORE_PASSWORD or a prompt)',
} satisfies FlagSpec;
const JSON_FLAG = { type: 'boolean', help: 'print JSON' } satisfies FlagSpec;

/** Flags of `wallet new`. */
export const NEW_FLAGS = flagSpecs({
  keystore: {
    type: 'string',
    help: 'also write account 0 to this encrypted keystore file (password: OMBRA_KEYSTORE_PASSWORD or a prompt)',
  },
  json: JSON_FLAG,
});
export const ADDRESS_FLAGS = flagSpecs({ index: INDEX_FLAG, mnemonic: MNEMONIC_FLAG, keystore: KEYSTORE_FLAG, json: JSON_FLAG });
export const SEND_FLAGS = flagSpecs({
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
});

export const BALANCE_FLAGS = flagSpecs({
  address: { type: 'string', help: 'the address to look up (default: account N of the wallet)' },
  index: INDEX_FLAG,
  mnemonic: MNEMONIC_FLAG,
  keystore: KEYSTORE_FLAG,
  url: URL_FLAG,
  'api-key': API_KEY_FLAG,
  json: JSON_FLAG,
});

/** The subcommands of `ombra wallet`: usage, summary and flags. */
export const SUBCOMMANDS = {
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
} satisfies Record<string, { usage: string; summary: string; flags: FlagSpecs }>;

/** Whether `name` is a subcommand of `ombra wallet`. */
export const isWalletSub = (name: string): name is keyof typeof SUBCOMMANDS => Object.hasOwn(SUBCOMMANDS, name);

/** The flags that pick a wallet key: --index of --mnemonic, or --keystore. */
export type KeyFlags = Pick<Flags<typeof ADDRESS_FLAGS>, 'index' | 'mnemonic' | 'keystore'>;

/** Help for `ombra wallet [sub]`. */
export function walletHelp(argv: string[]): string {
  const name = argv[0] ?? '';
  if (isWalletSub(name)) return helpText(SUBCOMMANDS[name].usage, SUBCOMMANDS[name].summary, SUBCOMMANDS[name].flags);
  return (
    'Usage: ombra wallet <new | address | send | balance> [options]\n\n' +
    Object.entries(SUBCOMMANDS)
      .map(([name, s]) => `  ${name.padEnd(10)} ${s.usage}`)
      .join('\n') +
    '\n\nRun `ombra wallet <subcommand> --help` for its options.\n'
  );
}
