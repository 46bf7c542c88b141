/** The files derived from the route definitions, by path from the repository root (cli/apiDocs.ts writes them). */
import { clientAnswersSource, clientRecordsSource, clientRoutesSource } from './clientSource.ts';
import { routeTables } from './routeTables.ts';

/** Each generated file and its generator. */
export const GENERATED_FILES: Readonly<Record<string, () => string>> = {
  'docs/api.md': routeTables,
  'client/routes.ts': clientRoutesSource,
  'client/answers.ts': clientAnswersSource,
  'client/records.ts': clientRecordsSource,
};
