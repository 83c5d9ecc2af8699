// The dependency rules are the lint's, not a convention: the repository's own dependency-cruiser rules
// (.dependency-cruiser.cjs, run by `npm run lint`) report a deliberate violation of each one and let the legal imports
// through. The violations are written into a small tree of their own, laid out like the repository's, so the real
// tree stays untouched and the check takes a second.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

/** The probe tree: each file with the imports it makes. */
const FILES: Record<string, string> = {
  // A cycle made only of type imports.
  'src/lib/cycleA.ts': "import type { B } from './cycleB';\nexport type A = { b?: B };",
  'src/lib/cycleB.ts': "import type { A } from './cycleA';\nexport type B = { a?: A };",
  // Features: clients imports another feature's index; its own files and the shared layers are fine.
  'src/features/clients/index.ts': "export { ClientsPage } from './ClientsPage';",
  'src/features/clients/ClientsPage.tsx': [
    "import { RouteLaneMark } from '../schedule';",
    "import { clientQueries } from '../../entities/clients/queries';",
    "import { Button } from '../../ui/Button';",
    "import { canSee } from '../../router/access';",
    'export const ClientsPage = [RouteLaneMark, clientQueries, Button, canSee];',
  ].join('\n'),
  'src/features/schedule/index.ts': "export { RouteLaneMark } from './DayRoutes';",
  'src/features/schedule/DayRoutes.tsx': "export const RouteLaneMark = 1;",
  // A feature's sub-folder uses the rest of its feature; its page imports another feature (no page is exempt).
  'src/features/schedule/optimise/OptimiseDialog.tsx': "import { RouteLaneMark } from '../DayRoutes';\nexport const OptimiseDialog = RouteLaneMark;",
  'src/features/schedule/AppointmentsPage.tsx': "import { OptimiseDialog } from './optimise/OptimiseDialog';\nimport { ClientsPage } from '../clients';\nexport const page = [OptimiseDialog, ClientsPage];",
  // Layers: entities importing a view, ui importing a feature, lib importing a machine.
  'src/entities/clients/queries.ts': "import { Button } from '../../ui/Button';\nexport const clientQueries = Button;",
  'src/ui/Button.tsx': "import { ClientsPage } from '../features/clients';\nexport const Button = ClientsPage;",
  'src/lib/dates.ts': "import { auth } from '../machines/auth';\nexport const dates = auth;",
  'src/machines/auth.ts': "export const auth = 1;",
  // The router: its data modules may be imported from below, its pages and table may not.
  'src/router/access.ts': 'export const canSee = 1;',
  'src/router/AppRoutes.tsx': "import { ClientsPage } from '../features/clients';\nexport const AppRoutes = ClientsPage;",
  'src/shell/Sidebar.tsx': "import { AppRoutes } from '../router/AppRoutes';\nexport const Sidebar = AppRoutes;",
  // Product code importing test support.
  'src/app/services.ts': "import { memoryStorage } from '../testing/memoryStorage';\nexport const services = memoryStorage;",
  'src/testing/memoryStorage.ts': 'export const memoryStorage = 1;',
  // Server: a lower layer importing a module, the optimizer importing the database, the schedule importing a module
  // that depends on it, the server importing the web app.
  'server/src/db/client.ts': "import { syncHandlers } from '../modules/sync';\nexport const db = syncHandlers;",
  'server/src/optimizer/solve.ts': "import { db } from '../db/client';\nexport const solve = db;",
  'server/src/modules/schedule/index.ts': "import { syncHandlers } from '../sync';\nexport const schedule = syncHandlers;",
  'server/src/modules/sync/index.ts': "import { dates } from '../../../../src/lib/dates';\nexport const syncHandlers = dates;",
  'server/src/modules/sync/places.test.ts': "import { dates } from '../../../../src/lib/dates';\nexport const t = dates;",
};

let root = '';
let violations: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'rounds-depcruise-'));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), `${text}\n`);
  }
  const options = { ...config.options, tsConfig: undefined, baseDir: root, ruleSet: { forbidden: config.forbidden }, validate: true };
  const { output } = await cruise(['src', 'server/src'], options);
  const result = output as ICruiseResult;
  violations = (result.summary.violations ?? []).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}, 30_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('reports an import cycle, even one made of type-only imports', () => {
    expect(violations).toContain('no-cycle: src/lib/cycleA.ts → src/lib/cycleB.ts');
  });

  it('reports a feature importing another feature, and lets it import its own files and the shared layers', () => {
    expect(violations).toContain('feature-imports-feature: src/features/clients/ClientsPage.tsx → src/features/schedule/index.ts');
    expect(violations.filter((v) => v.startsWith('feature-imports-feature: src/features/clients/'))).toHaveLength(1);
  });

  it("lets a feature's sub-folders and pages import the rest of the feature, and exempts no page from the rule", () => {
    expect(violations.filter((v) => v.startsWith('feature-imports-feature: src/features/schedule/'))).toEqual([
      'feature-imports-feature: src/features/schedule/AppointmentsPage.tsx → src/features/clients/index.ts',
    ]);
  });

  it('reports a lower web layer importing a higher one', () => {
    expect(violations).toEqual(expect.arrayContaining([
      'web-layer-imports-higher: src/entities/clients/queries.ts → src/ui/Button.tsx',
      'web-layer-imports-higher: src/ui/Button.tsx → src/features/clients/index.ts',
      'web-layer-imports-higher: src/lib/dates.ts → src/machines/auth.ts',
    ]));
    expect(violations.some((v) => v.includes('src/router/access.ts'))).toBe(false);
  });

  it("reports a view importing the router's pages or table, not its data modules", () => {
    expect(violations).toContain('web-imports-router-pages: src/shell/Sidebar.tsx → src/router/AppRoutes.tsx');
  });

  it('reports product code importing test support', () => {
    expect(violations).toContain('product-imports-tests: src/app/services.ts → src/testing/memoryStorage.ts');
  });

  it('reports the server breaking its layers', () => {
    expect(violations).toEqual(expect.arrayContaining([
      'server-lower-imports-modules: server/src/db/client.ts → server/src/modules/sync/index.ts',
      'optimizer-imports-server: server/src/optimizer/solve.ts → server/src/db/client.ts',
      'schedule-imports-its-users: server/src/modules/schedule/index.ts → server/src/modules/sync/index.ts',
      'server-imports-web: server/src/modules/sync/index.ts → src/lib/dates.ts',
    ]));
    expect(violations.some((v) => v.startsWith('server-imports-web: server/src/modules/sync/places.test.ts'))).toBe(false);
  });
});
