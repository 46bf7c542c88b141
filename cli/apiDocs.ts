/**
 * `npm run docs` (with cli/docs.ts): writes what is derived from the route definitions of
 * api/endpoints/: docs/api.md (the route tables) and the typed client's client/routes.ts,
 * client/answers.ts and client/records.ts. A test fails while any of them is stale.
 */
import { writeFileSync } from 'node:fs';
import { GENERATED_FILES } from '../api/endpoints/generated.ts';

for (const [path, source] of Object.entries(GENERATED_FILES)) writeFileSync(new URL(`../${path}`, import.meta.url), source());
