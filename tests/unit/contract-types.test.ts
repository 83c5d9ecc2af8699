// Generated types must match the API descriptions they come from: regenerate with `npm run api:generate`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import openapiTS, { astToString } from 'openapi-typescript';

describe('openapi/generated/schema.d.ts', () => {
  it('is generated from the current openapi/openapi.yaml', async () => {
    const ast = await openapiTS(new URL('../../openapi/openapi.yaml', import.meta.url));
    const generated = astToString(ast);
    const committed = readFileSync(new URL('../../openapi/generated/schema.d.ts', import.meta.url), 'utf8');
    const body = (text: string) => text.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '').trim();
    expect(body(committed), 'openapi/generated/schema.d.ts is stale: run npm run api:generate').toBe(body(generated));
  }, 30_000);
});

describe('server/src/pms/cliniko/cliniko-schema.d.ts', () => {
  it('is generated from the current openapi/cliniko-openapi.yaml', async () => {
    const ast = await openapiTS(new URL('../../openapi/cliniko-openapi.yaml', import.meta.url));
    const generated = astToString(ast);
    const committed = readFileSync(new URL('../../server/src/pms/cliniko/cliniko-schema.d.ts', import.meta.url), 'utf8');
    const body = (text: string) => text.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '').trim();
    expect(body(committed), 'server/src/pms/cliniko/cliniko-schema.d.ts is stale: run npm run api:generate').toBe(body(generated));
  }, 30_000);
});
