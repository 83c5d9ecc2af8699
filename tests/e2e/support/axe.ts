// axe-core run inside the page: its source is injected as a script, which the product's CSP (no inline scripts)
// would block, so a context that runs it is created with `bypassCSP: true`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding { id: string; impact: string; help: string; targets: string[]; why: string }

/**
 * The serious and critical violations on the page now (WCAG 2.1 A/AA and best practices), one line per node.
 * `only`: restrict to these rules (the dark theme re-checks colour contrast only).
 */
export async function seriousViolations(page: Page, options: { only?: string[]; include?: string } = {}): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(async ({ only, include }) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe;
    const runOnly = only ? { type: 'rule', values: only } : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] };
    const { violations } = await axe.run(include ? { include: [include] } : document, { runOnly, resultTypes: ['violations'] });
    return violations.map((violation) => ({ id: violation.id, impact: violation.impact ?? '', help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')), why: violation.nodes[0]?.failureSummary?.split('\n').slice(1).join(' ').trim() ?? '' }));
  }, options);
  return results.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}

/** One readable line per violation, for an assertion message. */
export function describeFindings(where: string, findings: AxeFinding[]): string[] {
  return findings.map((finding) => `${where}: ${finding.id} (${finding.impact}) ${finding.help} — ${finding.targets.slice(0, 4).join(', ')}${finding.targets.length > 4 ? ` (+${finding.targets.length - 4})` : ''}: ${finding.why}`);
}
