// The import boundaries are the lint's, not a convention: the repository's own ESLint configuration reports a
// deliberate violation of each rule and lets the legal import through.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rules that fire for `code` placed at `filePath` (the file need not exist). */
async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

// Loading the configuration and the TypeScript parser takes seconds on a busy machine.
describe('import boundaries (eslint.config.js)', { timeout: 30_000 }, () => {
  it('reports code outside a server module importing a file inside it', async () => {
    expect(await violations('server/src/main.ts', "import { syncJobHandlers } from './modules/sync/job-handlers';\nvoid syncJobHandlers;"))
      .toEqual([expect.stringMatching(/^boundaries\/import-through-index: server\/src\/modules\/sync\/job-handlers is inside server\/src\/modules\/sync/)]);
    expect(await violations('tests/api/example.test.ts', "export { runImport } from '../../server/src/modules/sync/import-job';"))
      .toEqual([expect.stringMatching(/^boundaries\/import-through-index: /)]);
  });

  it('reports a web-app test importing a server module\'s internals', async () => {
    expect(await violations('src/features/sync/example.test.ts', "import { MAX_RANGE_DAYS } from '../../../server/src/modules/sync/time-range';\nvoid MAX_RANGE_DAYS;"))
      .toEqual([expect.stringMatching(/^boundaries\/import-through-index: server\/src\/modules\/sync\/time-range is inside server\/src\/modules\/sync/)]);
  });

  it('reports a module importing another module\'s internals, even a type', async () => {
    expect(await violations('server/src/modules/clients/service.ts', "import type { TagRow } from '../tags/repository';\nexport type T = TagRow;"))
      .toEqual([expect.stringMatching(/^boundaries\/import-through-index: server\/src\/modules\/tags\/repository is inside server\/src\/modules\/tags/)]);
  });

  it('reports code outside the PMS layer or its sandbox importing their internals', async () => {
    expect(await violations('server/src/modules/sync/example.ts', "import { createClinikoAdapter } from '../../pms/cliniko/cliniko-adapter';\nvoid createClinikoAdapter;"))
      .toEqual([expect.stringMatching(/inside server\/src\/pms: import server\/src\/pms \(its index\.ts\)/)]);
    expect(await violations('tests/api/example.test.ts', "import { startSandbox } from '../../server/src/pms/sandbox/server';\nvoid startSandbox;"))
      .toEqual([expect.stringMatching(/inside server\/src\/pms\/sandbox: import server\/src\/pms\/sandbox/)]);
  });

  it('reports the jobs layer importing any module, even through its index', async () => {
    expect(await violations('server/src/jobs/worker.ts', "import { syncJobHandlers } from '../modules/sync';\nvoid syncJobHandlers;"))
      .toEqual([expect.stringMatching(/^no-restricted-imports: .*server\/src\/jobs must not import server\/src\/modules/)]);
  });

  it('reports a web-app feature or the shell importing another feature\'s internals, and lets the index through', async () => {
    expect(await violations('src/features/sync/useJobPoller.ts', "import { clientQueries } from '../clients/queries';\nvoid clientQueries;"))
      .toEqual([expect.stringMatching(/^boundaries\/import-through-index: src\/features\/clients\/queries is inside src\/features\/clients/)]);
    expect(await violations('src/shell/ModalHost.tsx', "import { ClientDetailsModal } from '../features/clients/ClientDetailsModal';\nvoid ClientDetailsModal;"))
      .toEqual([expect.stringMatching(/^boundaries\/import-through-index: /)]);
    expect(await violations('src/features/sync/useJobPoller.ts', "import { clientQueries } from '../clients';\nimport { jobStatusLabel } from './jobStatus';\nvoid [clientQueries, jobStatusLabel];")).toEqual([]);
  });

  it('reports machines, API calls and helpers importing views', async () => {
    expect(await violations('src/machines/syncForm.ts', "import { prefillDraft } from '../features/sync/dateRange';\nvoid prefillDraft;"))
      .toEqual(expect.arrayContaining([expect.stringMatching(/^no-restricted-imports: .*must not import views/)]));
    expect(await violations('src/api/jobs.ts', "import { Button } from '../ui/Button';\nvoid Button;"))
      .toEqual([expect.stringMatching(/^no-restricted-imports: .*must not import views/)]);
    expect(await violations('src/machines/syncForm.ts', "import { rangeProblem } from '../lib/syncRange';\nvoid rangeProblem;")).toEqual([]);
  });

  it('lets modules, the composition root and tests import a module through its index, and a module its own files', async () => {
    expect(await violations('server/src/main.ts', "import { automaticSyncRules, syncJobHandlers } from './modules/sync';\nvoid [automaticSyncRules, syncJobHandlers];")).toEqual([]);
    expect(await violations('server/src/modules/clients/service.ts', "import { setClientTags } from '../tags';\nimport { findClient } from './repository';\nvoid [setClientTags, findClient];")).toEqual([]);
    expect(await violations('tests/api/example.test.ts', "import { startSandbox } from '../../server/src/pms/sandbox';\nimport { createPmsAdapter } from '../../server/src/pms/index';\nvoid [startSandbox, createPmsAdapter];")).toEqual([]);
    expect(await violations('server/src/pms/sandbox/serialise.ts', "import { normaliseBusiness } from '../cliniko/normalise';\nvoid normaliseBusiness;")).toEqual([]);
    expect(await violations('src/features/sync/example.test.ts', "import { MAX_RANGE_DAYS } from '../../../server/src/lib/day-range';\nvoid MAX_RANGE_DAYS;")).toEqual([]);
  });
});
