// Validates every response the tests see against the contract: status listed, body matching its schema.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { contractPath } from '../../../server/src/app';

interface Operation { operationId: string; responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> }
const contract = parseYaml(readFileSync(contractPath, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(contract as object, 'contract');

const routes = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    method: method.toUpperCase(),
    pattern: new RegExp(`^/api${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    path,
    operation,
  })));

const validators = new Map<string, ValidateFunction | null>();

function validatorFor(path: string, method: string, status: string, operation: Operation): ValidateFunction | null {
  const key = `${method} ${path} ${status}`;
  if (validators.has(key)) return validators.get(key)!;
  const response = operation.responses[status];
  let pointer: string | null = null;
  if (response?.$ref) {
    const name = response.$ref.split('/').pop()!;
    pointer = contract.components.responses[name].content ? `#/components/responses/${name}/content/application~1json/schema` : null;
  } else if (response?.content) {
    const escaped = path.replaceAll('~', '~0').replaceAll('/', '~1');
    pointer = `#/paths/${escaped}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  }
  const validate = pointer ? ajv.compile({ $ref: `contract${pointer}` }) : null;
  validators.set(key, validate);
  return validate;
}

/** Throws when the response is not one the contract allows for this call. */
export function assertMatchesContract(method: string, url: string, status: number, body: unknown): void {
  const pathname = url.split('?')[0];
  const route = routes.find((candidate) => candidate.method === method && candidate.pattern.test(pathname));
  if (!route) return; // not a contract route (e.g. the SPA or an unknown path)
  if (status === 429 || status === 413 || status === 400 || status === 415) {
    if (!(body && typeof body === 'object' && 'message' in body)) throw new Error(`${method} ${url} → ${status} without a message`);
    return;
  }
  if (!route.operation.responses[String(status)]) {
    throw new Error(`${method} ${url} answered ${status}, which the contract does not list for ${route.operation.operationId}: ${JSON.stringify(body)}`);
  }
  const validate = validatorFor(route.path, method, String(status), route.operation);
  if (validate && !validate(body)) {
    throw new Error(`${method} ${url} → ${status} does not match the contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}
