/** `npm run docs`: writes the generated protocol reference to stdout (docs/protocol.md). */
import { protocolReference } from '../core/protocolDoc.ts';

// process.stdout.write, not console.log: the file must equal the generator's output exactly.
process.stdout.write(protocolReference());
