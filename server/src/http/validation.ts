// Request validation: JSON bodies are checked as sent (no type coercion, so ["x"] is not a string), while path
// and query strings, which are always text, are coerced to the contract's types. No string anywhere may hold a
// NUL character: PostgreSQL cannot store one, and no field of the contract has a use for it.
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function createAjv(options: Options) {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  addFormats(ajv);
  return ajv;
}

/** The JSON pointer of the first string (key or value) holding a NUL character, or null. */
export function nulCharacterAt(value: unknown, pointer = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nulCharacterAt(value[index], `${pointer}/${index}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (key.includes('\u0000')) return at;
      const found = nulCharacterAt(item, at);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Runs the contract's schema after refusing NUL characters, which the schema alone cannot express. */
function refusingNul(validate: ValidateFunction): ValidateFunction {
  const wrapped = ((data: unknown, context?: unknown) => {
    const at = nulCharacterAt(data);
    if (at !== null) {
      const issue: ErrorObject = { instancePath: at, schemaPath: '#', keyword: 'nul', params: {}, message: 'must not contain a NUL character (\\u0000)' };
      wrapped.errors = [issue];
      return false;
    }
    const valid = (validate as (data: unknown, context?: unknown) => boolean)(data, context);
    wrapped.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  Object.assign(wrapped, { schema: validate.schema, schemaEnv: validate.schemaEnv });
  return wrapped;
}

export function contractValidatorCompiler(): FastifySchemaCompiler<object> {
  const bodies = createAjv({ coerceTypes: false });
  const texts = createAjv({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => refusingNul((httpPart === 'body' ? bodies : texts).compile(schema));
}
