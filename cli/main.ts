#!/usr/bin/env node
/** The `ombra` command: dispatches to one module per command. */
import { ChainError } from '../core/errors.ts';
import { UsageError } from './args.ts';
import { COMMANDS } from './commands.ts';

const HELP = `Usage: ombra <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}`)
  .join('\n')}

Run \`ombra <command> --help\` for a command's options.
`;

/** Whether the command line (or OMBRA_LOG_LEVEL) asks for debug logs. */
function debugAsked(args: string[]): boolean {
  const i = args.lastIndexOf('--log-level');
  const flag = i >= 0 ? args[i + 1] : args.findLast((a) => a.startsWith('--log-level='))?.slice('--log-level='.length);
  return (flag ?? process.env.OMBRA_LOG_LEVEL) === 'debug';
}

/** An error's message up to its first line break. */
function firstLine(e: unknown): string {
  const message = e instanceof Error ? `${e.message}` || e.name : String(e);
  return message.split('\n')[0].replace(/[:\s]+$/, '');
}

async function main(argv: string[]): Promise<number> {
  // Everything the node writes (LevelDB's files among them, which it creates itself) is its
  // operator's alone, whatever umask the shell or the service manager left: 0700 dirs, 0600 files.
  process.umask(0o077);
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP);
    return name ? 0 : 2;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    process.stderr.write(`ombra: unknown command ${name}\n\n${HELP}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(await cmd.help(rest.filter((a) => a !== '--help' && a !== '-h')));
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line and where the options are, rather than the whole help after every typo.
      // A subcommand is a first word with help of its own (`wallet send`); anything else is not named.
      const first = rest[0] && !rest[0].startsWith('-') ? rest[0] : undefined;
      const sub = first && (await cmd.help([first])) !== (await cmd.help([])) ? ` ${first}` : '';
      process.stderr.write(`ombra ${name}: ${e.message} (see \`ombra ${name}${sub} --help\`)\n`);
      return 2;
    }
    // The faults' modules are loaded here, on the way out, not by every command (the node's alone is ~0.3 s of CPU).
    const [{ LogIntegrityError }, { ListenFault }, { KeystoreError }, { CliFault }] = await Promise.all([
      import('../node/node.ts'),
      import('../api/metricsServer.ts'),
      import('./wallet/keystore.ts'),
      import('../launch/dataDir.ts'),
    ]);
    // A damaged block log (names the height and the repair) or a taken port (names the flag): one line, no stack.
    if (e instanceof LogIntegrityError || e instanceof ListenFault || e instanceof KeystoreError || e instanceof CliFault) {
      process.stderr.write(`ombra ${name}: ${e.message}\n`);
      return 1;
    }
    if (e instanceof ChainError) {
      process.stderr.write(`ombra ${name}: ${e.message} (${e.code})\n`);
      return 1;
    }
    // Anything else is one line too (its first); the stack only for whoever asked for debug logs.
    if (debugAsked(rest)) process.stderr.write(`ombra ${name}: ${(e instanceof Error ? e.stack : undefined) ?? e}\n`);
    else process.stderr.write(`ombra ${name}: ${firstLine(e)} (--log-level debug shows where)\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
