// Generated types must match the API descriptions they come from: regenerate with `npm run api:generate`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import openapiTS, { astToString } from 'openapi-typescript';

const GENERATED = [
  { output: 'openapi/generated/schema.d.ts', source: 'openapi/openapi.yaml' },
  { output: 'server/src/pms/cliniko/cliniko-schema.d.ts', source: 'openapi/cliniko-openapi.yaml' },
];

for (const { output, source } of GENERATED) {
  describe(output, () => {
    it(`is generated from the current ${source}`, async () => {
      const ast = await openapiTS(new URL(`../../${source}`, import.meta.url));
      const generated = astToString(ast);
      const committed = readFileSync(new URL(`../../${output}`, import.meta.url), 'utf8');
      const body = (text: string) => text.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '').trim();
      expect(body(committed), `${output} is stale: run npm run api:generate`).toBe(body(generated));
    }, 30_000);
  });
}
