// Request validation: JSON bodies are checked as sent (no type coercion, so ["x"] is not a string), while path
// and query strings, which are always text, are coerced to the contract's types. No string anywhere may hold a
// NUL character or a lone surrogate: PostgreSQL cannot store them, and no field of the contract has a use for them.
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function createAjv(options: Options) {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  addFormats(ajv);
  return ajv;
}

/** How deep a request's JSON may nest: the contract's deepest bodies, and Stripe's events, are far shallower. */
export const MAX_DEPTH = 64;

/** A surrogate code unit without its other half: not a character, and PostgreSQL refuses it in JSON. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (text that is not valid Unicode)';
  return null;
}

const pointerPart = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The first string (key or value) no field can hold — a NUL character or a lone surrogate — as a validation issue at
 * its JSON pointer, or nesting deeper than MAX_DEPTH. A loop over a stack, so that no input can exhaust the call stack.
 */
export function textIssue(data: unknown): ErrorObject | null {
  const issue = (instancePath: string, keyword: string, message: string): ErrorObject => ({ instancePath, schemaPath: '#', keyword, params: {}, message });
  const pending: { value: unknown; pointer: string; depth: number }[] = [{ value: data, pointer: '', depth: 0 }];
  while (pending.length) {
    const { value, pointer, depth } = pending.pop()!;
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) return issue(pointer, 'text', problem);
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth === MAX_DEPTH) return issue('', 'depth', `is too deeply nested (more than ${MAX_DEPTH} levels)`);
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
    // Pushed last to first, so that the first problem in the document is the one reported.
    for (const [key, item] of entries.reverse()) {
      const at = `${pointer}/${pointerPart(key)}`;
      const problem = Array.isArray(value) ? null : stringProblem(key);
      if (problem) return issue(at, 'text', problem);
      pending.push({ value: item, pointer: at, depth: depth + 1 });
    }
  }
  return null;
}

/** Runs the contract's schema after refusing what the schema alone cannot express (textIssue). */
function refusingUnstorableText(validate: ValidateFunction): ValidateFunction {
  const wrapped = ((data: unknown, context?: unknown) => {
    const issue = textIssue(data);
    if (issue) {
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
  return ({ schema, httpPart }) => refusingUnstorableText((httpPart === 'body' ? bodies : texts).compile(schema));
}
