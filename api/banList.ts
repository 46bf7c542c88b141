/**
 * The operator's ban list: IPs and CIDRs from the options and from a file, re-read when it
 * changes. A ban is a ban whatever the rate limits (api/rateLimit.ts asks it first).
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { BlockList, isIP } from 'node:net';

/** Parses ban entries into a BlockList; throws on a malformed entry. */
export function parseBanList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const e = raw.trim();
    if (!e || e.startsWith('#')) continue;
    const [addr, bits] = e.split('/');
    const family = isIP(addr);
    if (!family) throw new Error(`ban list: ${e.slice(0, 80)} is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(addr, type);
    else {
      const n = /^[0-9]{1,3}$/.test(bits) ? Number(bits) : -1;
      if (n < 0 || n > (family === 4 ? 32 : 128)) throw new Error(`ban list: bad prefix length in ${e.slice(0, 80)}`);
      list.addSubnet(addr, n, type);
    }
  }
  return list;
}

/** Banned IPs and CIDRs: the options' entries plus the ban file's. */
export class BanList {
  private readonly banned: BlockList;
  private fileBanned: BlockList = new BlockList();
  /** Entries on both lists (0 skips the check on the hot path). */
  private readonly banEntries: number;
  private fileBanEntries = 0;
  private readonly file: string | undefined;
  private readonly pollMs: number;

  /** Throws on a malformed entry of `entries`; reads `file` (when given) once now. */
  constructor(entries: string[], file: string | undefined, pollMs: number) {
    this.file = file;
    this.pollMs = pollMs;
    this.banned = parseBanList(entries);
    this.banEntries = entries.filter((e) => e.trim() && !e.trim().startsWith('#')).length;
    this.reloadFile();
  }

  /** Starts re-reading the ban file when it changes. */
  follow(): void {
    if (this.file) watchFile(this.file, { interval: this.pollMs, persistent: false }, () => this.reloadFile());
  }

  /** Stops following the ban file. */
  unfollow(): void {
    if (this.file) unwatchFile(this.file);
  }

  /** Re-reads the ban file; a missing file bans nobody, a bad line keeps the previous list. */
  reloadFile(): void {
    if (!this.file) return;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      this.fileBanned = new BlockList();
      this.fileBanEntries = 0;
      return;
    }
    try {
      const lines = text.split('\n');
      this.fileBanned = parseBanList(lines);
      this.fileBanEntries = lines.filter((e) => e.trim() && !e.trim().startsWith('#')).length;
    } catch {
      // keep the previous list: an operator's typo must not unban everyone
    }
  }

  /** True when `ip` is on the ban list. */
  isBanned(ip: string): boolean {
    if (this.banEntries + this.fileBanEntries === 0) return false;
    const family = isIP(ip);
    if (!family) return false;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    return (this.banEntries > 0 && this.banned.check(ip, type)) || (this.fileBanEntries > 0 && this.fileBanned.check(ip, type));
  }
}
