// Request validation: JSON bodies are checked as sent (no type coercion, so ["x"] is not a string), while path
// and query strings, which are always text, are coerced to the contract's types.
import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function createAjv(options: Options) {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  addFormats(ajv);
  return ajv;
}

export function contractValidatorCompiler(): FastifySchemaCompiler<object> {
  const bodies = createAjv({ coerceTypes: false });
  const texts = createAjv({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : texts).compile(schema);
}
