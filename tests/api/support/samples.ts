// Builds a schema-valid sample request body from the contract, so permission tests reach the permission check
// rather than stopping at validation.
type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; enum?: unknown[];
  format?: string; pattern?: string; minimum?: number; minLength?: number; $ref?: string; oneOf?: Schema[]; minItems?: number; minProperties?: number };

export function sampleFor(schema: Schema | undefined, resolve: (ref: string) => Schema): unknown {
  if (!schema) return undefined;
  if (schema.$ref) return sampleFor(resolve(schema.$ref), resolve);
  if (schema.oneOf) return sampleFor(schema.oneOf[0], resolve);
  if (schema.enum) return schema.enum[0];
  // No sample can be guessed for a pattern; a nullable field with one is sent as null.
  if (schema.pattern && Array.isArray(schema.type) && schema.type.includes('null')) return null;
  // A time of day (HH:MM).
  if (schema.pattern === '^([01][0-9]|2[0-3]):[0-5][0-9]$') return '09:00';
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const body: Record<string, unknown> = {};
      const keys = new Set(schema.required ?? []);
      for (const key of Object.keys(schema.properties ?? {})) if (keys.size < (schema.minProperties ?? 0)) keys.add(key);
      for (const key of keys) body[key] = sampleFor(schema.properties?.[key], resolve);
      return body;
    }
    case 'array':
      return schema.minItems ? [sampleFor(schema.items, resolve)] : [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    default:
      if (schema.format === 'date') return '2026-11-24';
      if (schema.format === 'date-time') return '2026-11-24T00:00:00.000Z';
      if (schema.format === 'email') return 'sample@example.com';
      return 'sample-value'.padEnd(schema.minLength ?? 0, 'x');
  }
}
