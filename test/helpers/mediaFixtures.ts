/** The real media files of fixtures/media and the facts each must parse to (fixtures/media/expected.json). */
import { readFileSync } from 'node:fs';
import type { MediaFacts } from '../../core/media/mediaFacts.ts';

const dir = new URL('../../fixtures/media/', import.meta.url);

/** Facts by fixture file name. */
export const EXPECTED: Record<string, MediaFacts> = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8'));

/** The bytes of one fixture file. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(name, dir)));
}

/** Every fixture, with its bytes and expected facts. */
export const FIXTURES = Object.entries(EXPECTED).map(([name, facts]) => ({ name, facts, bytes: fixture(name) }));
