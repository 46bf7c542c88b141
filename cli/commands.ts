/** The command table of `ombra`. */
import { startCommand, startHelp } from './start.ts';

/** A CLI command. */
export interface Command {
  summary: string;
  help(argv: string[]): string;
  run(argv: string[]): Promise<number>;
}

/** Every command, by name. */
export const COMMANDS: Record<string, Command> = {
  start: { summary: 'run a node (dev or network)', help: startHelp, run: startCommand },
};
