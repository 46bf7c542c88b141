/**
 * `npm run docs`: writes every generated reference: docs/protocol.md (from core's schemas) and
 * what the route definitions of api/endpoints/ derive (docs/api.md and the typed client's
 * client/routes.ts). Tests fail while any of them is stale.
 */
import { writeFileSync } from 'node:fs';
import { GENERATED_FILES } from '../api/endpoints/derived.ts';
import { protocolReference } from '../core/protocolDoc.ts';

const files: Record<string, () => string> = { 'docs/protocol.md': protocolReference, ...GENERATED_FILES };
for (const [path, source] of Object.entries(files)) writeFileSync(new URL(`../${path}`, import.meta.url), source());
