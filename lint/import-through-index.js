// ESLint rule `boundaries/import-through-index`: a folder listed as a unit is entered only through its index.
// Code outside a unit imports the unit's folder (resolved to its index.ts), never a file inside it; code inside the
// unit imports its own files freely. Units are folders relative to the lint's working directory; a trailing `/*`
// makes every sub-folder a unit (server/src/modules/* → one unit per module). When units nest, the innermost
// containing the imported file decides (server/src/pms/sandbox inside server/src/pms).
import fs from 'node:fs';
import path from 'node:path';

function expandUnits(cwd, patterns) {
  const units = [];
  for (const pattern of patterns) {
    if (pattern.endsWith('/*')) {
      const parent = path.resolve(cwd, pattern.slice(0, -2));
      if (!fs.existsSync(parent)) continue;
      for (const entry of fs.readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) units.push(path.join(parent, entry.name));
      }
    } else {
      units.push(path.resolve(cwd, pattern));
    }
  }
  return units.sort((a, b) => b.length - a.length); // innermost first
}

const inside = (file, folder) => file === folder || file.startsWith(folder + path.sep);
const isIndex = (target, unit) => target === unit || /^index(\.[cm]?[jt]sx?)?$/.test(path.relative(unit, target));

export const importThroughIndex = {
  meta: {
    type: 'problem',
    docs: { description: 'Import a unit (a server module, the PMS layer, the sandbox) only through its index from outside it' },
    schema: [{
      type: 'object',
      properties: { units: { type: 'array', items: { type: 'string' } } },
      required: ['units'],
      additionalProperties: false,
    }],
    messages: {
      internal: '{{file}} is inside {{unit}}: import {{unit}} (its index.ts) from outside it, and export what you need there.',
    },
  },
  create(context) {
    const units = expandUnits(context.cwd, context.options[0].units);
    const importer = path.resolve(context.cwd, context.filename);
    const check = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(importer), source.value);
      const unit = units.find((candidate) => inside(target, candidate));
      if (!unit || inside(importer, unit) || isIndex(target, unit)) return;
      context.report({
        node: source,
        messageId: 'internal',
        data: { file: path.relative(context.cwd, target), unit: path.relative(context.cwd, unit) },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source.type === 'Literal' ? node.source : null),
    };
  },
};

export default { rules: { 'import-through-index': importThroughIndex } };
