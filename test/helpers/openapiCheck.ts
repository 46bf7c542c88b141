/** Checks values against the schemas of an OpenAPI 3.1 document with Ajv (JSON Schema 2020-12). */
import { Ajv2020 } from 'ajv/dist/2020.js';

const BASE = 'urn:ombra:openapi';

/** A checker over one document's component schemas. */
export function schemaChecker(doc: any): (schema: unknown, value: unknown) => string | null {
  // OpenAPI keywords (discriminator, x-*) are annotations here; strict mode would refuse them.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: BASE, components: doc.components });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`);
    let validate = cache.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text));
      cache.set(text, validate);
    }
    if (validate(value)) return null;
    return ajv.errorsText(validate.errors, { separator: '\n' }).slice(0, 2000);
  };
}
