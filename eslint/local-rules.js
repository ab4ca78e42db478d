// Rules of our own layout (docs/decisions/001-layout-and-import-rules.md), as an ESLint plugin.
import path from 'node:path'

const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$/

/** `server/features/<name>/…` or `app/features/<name>/…` → that area and name; null elsewhere. */
function featureOf(file) {
  const match = /(?:^|\/)(server|app)\/features\/([^/]+)\//.exec(file.split(path.sep).join('/'))
  return match ? { side: match[1], name: match[2] } : null
}

/** Where an import specifier points, as a repository path ('#server/x' → 'server/x'), or null for packages. */
function targetOf(specifier, importer) {
  if (specifier.startsWith('#')) return specifier.slice(1)
  if (specifier.startsWith('.')) return path.relative(process.cwd(), path.resolve(path.dirname(importer), specifier))
  return null
}

const typeOnly = (node) =>
  node.importKind === 'type' ||
  (node.specifiers?.length > 0 && node.specifiers.every((specifier) => specifier.importKind === 'type')) ||
  node.exportKind === 'type'

export default {
  rules: {
    'kebab-case-files': {
      meta: { type: 'suggestion', schema: [], messages: { name: 'File names are kebab-case: "{{name}}".' } },
      create(context) {
        return {
          Program(node) {
            const name = path.basename(context.filename)
            if (!KEBAB_CASE.test(name)) context.report({ node, messageId: 'name', data: { name } })
          },
        }
      },
    },
    'no-sibling-feature-imports': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          sibling:
            'A feature does not import another feature\'s code ("{{from}}" imports "{{to}}"): only types may cross. Pass a service in, or move what both need out of features/.',
        },
      },
      create(context) {
        const own = featureOf(context.filename)
        if (!own) return {}
        const check = (node) => {
          if (!node.source || typeOnly(node)) return
          const target = targetOf(String(node.source.value), context.filename)
          const other = target ? (featureOf(`${target}/`) ?? featureOf(target)) : null
          if (other && other.side === own.side && other.name !== own.name) {
            context.report({ node, messageId: 'sibling', data: { from: own.name, to: other.name } })
          }
        }
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check }
      },
    },
  },
}
