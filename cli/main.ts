#!/usr/bin/env node
/** The `ombra` command: dispatches to one module per command. */
import { ListenFault } from '../api/metricsServer.ts';
import { ChainError } from '../core/errors.ts';
import { LogIntegrityError } from '../node/node.ts';
import { UsageError } from './args.ts';
import { COMMANDS } from './commands.ts';

const HELP = `Usage: ombra <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}`)
  .join('\n')}

Run \`ombra <command> --help\` for a command's options.
`;

async function main(argv: string[]): Promise<number> {
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
    process.stdout.write(cmd.help(rest.filter((a) => a !== '--help' && a !== '-h')));
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`ombra ${name}: ${e.message}\n\n${cmd.help(rest)}`);
      return 2;
    }
    // A damaged block log (names the height and the repair) or a taken port (names the flag): one line, no stack.
    if (e instanceof LogIntegrityError || e instanceof ListenFault) {
      process.stderr.write(`ombra ${name}: ${e.message}\n`);
      return 1;
    }
    if (e instanceof ChainError) {
      process.stderr.write(`ombra ${name}: ${e.message} (${e.code})\n`);
      return 1;
    }
    process.stderr.write(`ombra ${name}: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
