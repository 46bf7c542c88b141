/**
 * The README is a newcomer's path, read top to bottom: it stays short, every link in it (and in
 * the guides it links to) lands on a file and heading that exist, and every `ombra` command it
 * shows is a real command (its `--help` exits 0 and names it).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const MAX_README_LINES = 250;

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The markdown a reader follows from the README. */
function guides(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md'));
  return ['README.md', 'ARCHITECTURE.md', ...docs.map((n) => `docs/${n}`)];
}

/** Fenced code blocks' bodies, and the text with them removed. */
function splitFences(markdown: string): { code: string[]; prose: string } {
  const code: string[] = [];
  const prose = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```\s*$/gm, (_, body: string) => {
    code.push(body);
    return '';
  });
  return { code, prose };
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings (repeats get -1, -2 ... as on GitHub). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of splitFences(read(file)).prose.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link target in a markdown file, outside code. */
function relativeLinks(file: string): string[] {
  const prose = splitFences(read(file)).prose.replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^[a-z][a-z+.-]*:/i.test(href));
}

/** A link that does not land: its file is missing, or its #anchor names no heading there. */
function brokenLink(from: string, href: string): string | undefined {
  const [path, anchor] = href.split('#', 2);
  const target = path === '' ? from : join(dirname(from), decodeURIComponent(path));
  if (!existsSync(join(ROOT, target))) return `${from}: ${href} (no such file)`;
  if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) return `${from}: ${href} (no such heading)`;
  return undefined;
}

/** The distinct `ombra <command> [<subcommand>]` the README shows, in code blocks and inline code. */
function readmeCommands(markdown: string): string[] {
  const { code, prose } = splitFences(markdown);
  const inline = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].replace(/\\\|/g, '|'));
  const found = new Set<string>();
  for (const text of [...code, ...inline]) {
    for (const m of text.matchAll(/(?:^|[\s;&|($])(?:npx )?ombra ([a-z][a-z-]*)(?: ([a-z][a-z|-]*))?/gm)) {
      const subs = m[2] ? m[2].split('|').filter(Boolean) : [];
      if (subs.length === 0) found.add(m[1]);
      for (const sub of subs) found.add(`${m[1]} ${sub}`);
    }
  }
  return [...found].sort();
}

/** Runs `node cli/bin.js <command> --help`: its exit code and everything it printed. */
function help(command: string): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'cli/bin.js'), ...command.split(' '), '--help'],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) || 1 : 0, out: stdout + stderr }),
    );
  });
}

test(`README.md stays at most ${MAX_README_LINES} lines`, () => {
  const lines = read('README.md').split('\n').length;
  assert.ok(lines <= MAX_README_LINES, `README.md has ${lines} lines`);
});

test('README.md keeps the three commands a newcomer starts with', () => {
  const readme = read('README.md');
  for (const cmd of ['npm install', 'npm start', 'npm test']) assert.ok(readme.includes(cmd), cmd);
});

test('README.md speaks of what is: no internal references', () => {
  const readme = read('README.md');
  for (const bad of [/\bissue \d+/i, /\bsession\b/i, /\.\.\/shared\//, /^open /m]) {
    assert.ok(!bad.test(readme), `README.md matches ${bad}`);
  }
});

test('every relative link in README.md, ARCHITECTURE.md and docs/ lands on a file and heading', () => {
  const broken = guides().flatMap((file) =>
    relativeLinks(file)
      .map((href) => brokenLink(file, href))
      .filter((b) => b !== undefined),
  );
  assert.deepEqual(broken, []);
});

test('the link check sees a missing file and a missing heading', () => {
  assert.equal(brokenLink('README.md', 'docs/operations.md'), undefined);
  assert.ok(brokenLink('README.md', 'docs/no-such-page.md'));
  assert.ok(brokenLink('README.md', 'docs/operations.md#no-such-heading'));
  assert.equal(
    slug('Gossip and sync bounds (`p2p/gossipConfig.ts`, `p2p/options.ts`)'),
    'gossip-and-sync-bounds-p2pgossipconfigts-p2poptionsts',
  );
});

test('the command finder reads code blocks, inline code and alternatives', () => {
  const md = '```sh\nnpx ombra wallet send --to X\nombra audit FILE\n```\n`npx ombra keys create\\|list --data-dir D`';
  assert.deepEqual(readmeCommands(md), ['audit', 'keys create', 'keys list', 'wallet send']);
});

test('every ombra command README.md shows exists: --help exits 0 and names it', async () => {
  const commands = readmeCommands(read('README.md'));
  assert.ok(commands.length >= 10, `only ${commands.length} commands found`);
  const results = await Promise.all(commands.map(async (c) => ({ c, ...(await help(c)) })));
  const failed = results
    .filter((r) => r.code !== 0 || !r.out.includes(`ombra ${r.c}`))
    .map((r) => `${r.c}: exit ${r.code}: ${r.out.slice(0, 200)}`);
  assert.deepEqual(failed, []);
});
