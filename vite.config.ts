import { readFileSync } from 'node:fs'
import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

// The server build bundles our whole Node server (server/main.ts), not only the page
// renderer, so production runs one plain-JavaScript file (docs/decisions/002-hono-hosts-react-router.md).
const SITE_CORE =
  /node_modules[\\/](clsx|lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|defaultAttributes|Icon|shared|icons[\\/](x|menu|zap|sun|moon|monitor|check|arrow-right)\.js))|app[\\/]lib[\\/](cn|toast|seo)\.ts|app[\\/]components[\\/](ui[\\/]button|layout[\\/]site-|preferences[\\/]theme-switch)|preload-helper/

const PGLITE_WORKER = 'pglite-worker.js'

/**
 * PGlite's thread runs server/db/pglite-worker.js, plain JavaScript that the server starts by a
 * URL relative to its own module (docs/decisions/034). The server build puts a copy beside the
 * chunk that holds that URL, so build/ is all production needs.
 */
function pgliteWorker(): Plugin {
  return {
    name: 'aether:pglite-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunk = Object.values(bundle).find((file) => file.type === 'chunk' && file.code.includes(`"./${PGLITE_WORKER}"`))
      if (!chunk) return
      this.emitFile({
        type: 'asset',
        fileName: path.posix.join(path.posix.dirname(chunk.fileName), PGLITE_WORKER),
        source: readFileSync(path.resolve('server/db', PGLITE_WORKER)),
      })
    },
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    target: 'es2022',
    // No preload helper around our lazy imports: it added a <link rel=modulepreload> per dependency
    // on the main thread while the page hydrated (the services form: about a dozen), and the browser
    // fetches a lazy chunk's imports itself (docs/decisions/035-inline-stylesheet-and-system-font.md).
    modulePreload: false,
    rollupOptions: isSsrBuild
      ? { input: './server/main.ts' }
      : {
          // Small modules every public page loads go into one file: one gzip stream compresses
          // them better than a dozen tiny ones (docs/decisions/008-page-weight.md).
          output: { codeSplitting: { groups: [{ name: 'site-core', test: SITE_CORE }] } },
        },
  },
  ssr: {
    external: ['@electric-sql/pglite', 'pg', '@node-rs/argon2', 'pino', 'pino-pretty'],
    // Bundled so that the server holds only the icons and date functions the pages use: loaded
    // from node_modules, every icon (5.7 MB of heap) and every date function (3 MB) stay in
    // memory once the first page renders (docs/decisions/034).
    noExternal: ['lucide-react', 'date-fns'],
  },
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [pgliteWorker()] : [])],
}))
