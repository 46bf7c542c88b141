/** The keystore password: OMBRA_KEYSTORE_PASSWORD, else a prompt on the terminal (not echoed). */
import { UsageError } from '../args.ts';

/** Reads the password for `what`; `confirm` asks twice (a new keystore). */
export async function keystorePassword(what: string, opts: { confirm?: boolean } = {}): Promise<string> {
  const fromEnv = process.env.OMBRA_KEYSTORE_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!process.stdin.isTTY || !process.stderr.isTTY)
    throw new UsageError(`${what} needs a password: set OMBRA_KEYSTORE_PASSWORD or run on a terminal`);
  const first = await prompt(`password for ${what}: `);
  if (!first) throw new UsageError('the password must not be empty');
  if (opts.confirm && (await prompt('repeat the password: ')) !== first) throw new UsageError('the passwords differ');
  return first;
}

/** One line from the terminal in raw mode, without echo. */
function prompt(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let text = '';
    const done = (value: string | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (value === null) reject(new UsageError('cancelled'));
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(text);
        if (ch === '\u0003' || ch === '\u0004') return done(null);
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else text += ch;
      }
    };
    stdin.on('data', onData);
  });
}
