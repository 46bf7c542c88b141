/** The component schemas of the OpenAPI document: the error, core's transaction schemas, then the records. */
import { ERROR, RECORDS } from '../../queries/schemas/records.ts';
import type { JsonSchema } from '../../queries/schemas/shapes.ts';
import { txComponentSchemas } from './txSchemas.ts';

/** Every component schema of the document: the error, then transactions, then the records. */
export function componentSchemas(): Record<string, JsonSchema> {
  return {
    Error: ERROR,
    ...txComponentSchemas(),
    ...RECORDS,
  };
}
