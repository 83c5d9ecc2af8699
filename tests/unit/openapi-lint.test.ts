// The contract check `npm run lint` runs (scripts/lint-openapi.mjs, Redocly CLI with redocly.yaml) fails on a key that
// is not an OpenAPI keyword. The classic way to write one: a flow-style description with a comma, whose tail YAML
// reads as a key of its own, so the API reference shows the description cut at the comma.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(path.join(tmpdir(), 'rounds-openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function contract(dateProperty: string): string {
  return [
    'openapi: 3.1.0',
    'info: { title: Probe, version: 0.1.0, license: { name: MIT, identifier: MIT } }',
    'servers: [{ url: /api }]',
    'paths:',
    '  /optimizations:',
    '    post:',
    '      operationId: createOptimization',
    '      requestBody:',
    '        content:',
    '          application/json:',
    '            schema:',
    '              type: object',
    '              properties:',
    `                ${dateProperty}`,
    '      responses:',
    "        '201': { description: The run }",
    "        '422': { description: Invalid input }",
  ].join('\n');
}

async function lint(name: string, text: string): Promise<{ failed: boolean; output: string }> {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['scripts/lint-openapi.mjs', file]);
    return { failed: false, output: stdout + stderr };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return { failed: true, output: stdout + stderr };
  }
}

describe('the contract check', () => {
  it('fails on a flow-style description broken by its comma, naming the stray key', async () => {
    const result = await lint('broken.yaml', contract(
      'date: { type: string, format: date, description: the day to optimise (the first, when end_date is given) }',
    ));
    expect(result.failed).toBe(true);
    expect(result.output).toContain('Property `when end_date is given)` is not expected here.');
    expect(result.output).toContain('The API description check failed');
  });

  it('passes the same description quoted', async () => {
    const result = await lint('quoted.yaml', contract(
      'date: { type: string, format: date, description: "the day to optimise (the first, when end_date is given)" }',
    ));
    expect(result).toEqual({ failed: false, output: expect.stringContaining('valid') });
  });
});
