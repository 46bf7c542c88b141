/**
 * Throwaway identities from one IPv6 /64 (one host's network: it picks any of 2^64 addresses)
 * hold no more connection slots than those from one IPv4 address. The flood runs with real
 * libp2p peers in a network namespace of its own (test/helpers/ipv6FloodChild.ts), where loopback
 * carries 61 addresses of one /64.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultP2pOptions } from '../../../p2p/options.ts';
import { REPO_ROOT } from '../../helpers/cliRun.ts';

const CHILD = fileURLToPath(new URL('../../helpers/ipv6FloodChild.ts', import.meta.url));

test('60 identities from 60 addresses of one IPv6 /64 hold at most maxConnectionsPerIp slots', async () => {
  const out = await new Promise<string>((resolve, reject) =>
    execFile('unshare', ['-rn', process.execPath, CHILD], { cwd: REPO_ROOT, timeout: 120_000 }, (e, stdout, stderr) =>
      e ? reject(new Error(`the namespaced flood failed: ${e.message}\n${stderr.slice(-2000)}`)) : resolve(stdout),
    ),
  );
  const line = out.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`no result from the flood: ${out.slice(-500)}`);
  const { strangers, kept, refused } = JSON.parse(line) as { strangers: number; kept: number; refused: number };
  console.log(`  ${strangers} identities from one IPv6 /64: ${kept} kept, ${refused} refused`);
  assert.ok(kept > 0, 'the flood reached the node');
  assert.ok(kept <= defaultP2pOptions.maxConnectionsPerIp, `one /64 holds ${kept} slots`);
});
