/** `ombra wallet balance`: an address's balance in OMBRA and micro-units, from a node's HTTP API. */
import { OmbraApiError, OmbraClient, OmbraUnreachable } from '../../client/index.ts';
import { normalizeAddress } from '../../core/address.ts';
import { apiKeyFlag, type Flags, UsageError } from '../args.ts';
import type { BALANCE_FLAGS } from './walletFlags.ts';
import { formatOmbra } from '../../core/ombraAmount.ts';

/** Prints the balance of --address, else of the wallet's own address (`ownAddress`). */
export async function walletBalance(flags: Flags<typeof BALANCE_FLAGS>, url: string, ownAddress: () => string): Promise<number> {
  let address: string;
  if (flags.address !== undefined) {
    const a = normalizeAddress(flags.address);
    if (!a) throw new UsageError(`--address must be an address: ox + 40 hex characters, got ${flags.address.slice(0, 80)}`);
    address = a;
  } else address = ownAddress();
  try {
    const account = await new OmbraClient({ url, apiKey: apiKeyFlag(flags) }).account(address);
    const micro = BigInt(account.balance);
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ address, balance: account.balance, balanceOmbra: formatOmbra(micro), nonce: account.nonce })}\n`,
      );
    else {
      process.stdout.write(`address:   ${address}\n`);
      process.stdout.write(`balance:   ${formatOmbra(micro)} OMBRA (${micro} micro-units)\n`);
      process.stdout.write(`nonce:     ${account.nonce}\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof OmbraApiError) process.stderr.write(`error ${e.code}: ${e.message}\n`);
    else if (e instanceof OmbraUnreachable) process.stderr.write(`${e.message}\n`);
    else throw e;
    return 1;
  }
}
