/** The flag contract every command shares (cli/args.ts): spellings, environment twins, defaults, usage errors. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiKeyFlag, helpText, intFlag, parseFlags, requiredIntFlag, UsageError } from '../../../cli/args.ts';

const SPECS = {
  port: { type: 'string', env: 'T_PORT', default: '7777', help: 'a port' },
  name: { type: 'string', env: 'T_NAME', help: 'a name' },
  dev: { type: 'boolean', env: 'T_DEV', help: 'dev mode' },
  peer: { type: 'string', env: 'T_PEERS', multiple: true, help: 'a peer (repeatable)' },
} as const;

const usage = (argv: string[], env: NodeJS.ProcessEnv = {}): string => {
  try {
    parseFlags(argv, SPECS, env);
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e.message;
  }
  assert.fail(`${argv.join(' ')} parsed`);
};

test('--flag value and --flag=value, positionals in any order', () => {
  const { flags, positionals } = parseFlags(['a', '--name', 'x', 'b', '--port=1', '--peer', 'p1', '--peer=p2', 'c'], SPECS, {});
  assert.deepEqual({ ...flags }, { name: 'x', port: '1', peer: ['p1', 'p2'] });
  assert.deepEqual(positionals, ['a', 'b', 'c']);
});

test('a value may start with one dash; the last of a repeated single flag wins', () => {
  const { flags } = parseFlags(['--name', '-5', '--name', 'y', '--port', '-1'], SPECS, {});
  assert.equal(flags.name, 'y');
  assert.equal(flags.port, '-1');
});

test('booleans: bare is true, =false|0|off|no is false, anything else true', () => {
  assert.equal(parseFlags(['--dev'], SPECS, {}).flags.dev, true);
  for (const v of ['false', '0', 'off', 'no']) assert.equal(parseFlags([`--dev=${v}`], SPECS, {}).flags.dev, false, v);
  assert.equal(parseFlags(['--dev=yes'], SPECS, {}).flags.dev, true);
  assert.equal(parseFlags(['--dev=0', '--dev'], SPECS, {}).flags.dev, true);
  assert.equal(parseFlags([], SPECS, {}).flags.dev, undefined);
});

test('environment twins fill what the command line left out, defaults after them', () => {
  const env = { T_PORT: '9', T_NAME: 'env', T_DEV: 'off', T_PEERS: ' a, b ,,c' };
  assert.deepEqual({ ...parseFlags([], SPECS, env).flags }, { port: '9', name: 'env', dev: false, peer: ['a', 'b', 'c'] });
  assert.deepEqual(
    { ...parseFlags(['--port', '1', '--peer', 'z', '--dev'], SPECS, env).flags },
    { port: '1', name: 'env', dev: true, peer: ['z'] },
  );
  assert.equal(parseFlags([], SPECS, { T_DEV: '1' }).flags.dev, true);
  // An empty variable is unset.
  assert.deepEqual({ ...parseFlags([], SPECS, { T_PORT: '', T_NAME: '' }).flags }, { port: '7777' });
});

test('usage errors name the flag in one line', () => {
  assert.equal(usage(['--nope']), 'unknown flag --nope');
  assert.equal(usage(['--nope=1']), 'unknown flag --nope');
  assert.equal(usage(['--no-dev']), 'unknown flag --no-dev');
  assert.equal(usage(['--name']), '--name needs a value');
  assert.equal(usage(['--name', '--dev']), '--name needs a value');
  assert.equal(usage(['--peer']), '--peer needs a value');
});

test('integer flags within bounds, required or not', () => {
  assert.equal(intFlag({ n: '12' }, 'n', 1, 20), 12);
  assert.equal(intFlag({}, 'n', 1, 20), undefined);
  for (const bad of ['0', '21', '1.5', '-1', 'x', true])
    assert.throws(() => intFlag({ n: bad }, 'n', 1, 20), { name: 'Error', message: '--n must be an integer 1..20' });
  assert.throws(() => requiredIntFlag({}, 'n', 1, 20), { message: '--n is required' });
  assert.equal(requiredIntFlag(parseFlags([], SPECS, {}).flags, 'port', 1, 65535), 7777);
});

test('--api-key: printable, no spaces, at most 256', () => {
  assert.equal(apiKeyFlag({ 'api-key': 'k-1' }), 'k-1');
  assert.equal(apiKeyFlag({}), undefined);
  assert.throws(() => apiKeyFlag({ 'api-key': 'a b' }), /--api-key must be 1-256 printable characters without spaces/);
});

test('help lists each flag with its value, environment twin and default', () => {
  assert.equal(
    helpText('t [options]', 'Does t.', SPECS),
    'Usage: t [options]\n\nDoes t.\n\nOptions:\n' +
      `${'  --port VALUE'.padEnd(30)} a port (env T_PORT, default 7777)\n` +
      `${'  --name VALUE'.padEnd(30)} a name (env T_NAME)\n` +
      `${'  --dev'.padEnd(30)} dev mode (env T_DEV)\n` +
      `${'  --peer VALUE'.padEnd(30)} a peer (repeatable) (env T_PEERS)\n` +
      '  --help                       show this help\n',
  );
});

test('a boolean whose name starts with no- is itself, not a negation', () => {
  const specs = { 'no-wait': { type: 'boolean', help: 'do not wait' }, wait: { type: 'boolean', help: 'wait' } } as const;
  assert.deepEqual({ ...parseFlags(['--no-wait'], specs, {}).flags }, { 'no-wait': true });
  assert.deepEqual({ ...parseFlags(['--no-wait=off', '--wait'], specs, {}).flags }, { 'no-wait': false, wait: true });
});
