import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

// The server build bundles our whole Node server (server/main.ts), not only the page
// renderer, so production runs one plain-JavaScript file (docs/decisions/002-hono-hosts-react-router.md).
export default defineConfig(({ isSsrBuild }) => ({
  build: {
    target: 'es2022',
    rollupOptions: isSsrBuild ? { input: './server/main.ts' } : undefined,
  },
  ssr: {
    external: ['@electric-sql/pglite', 'pg', '@node-rs/argon2', 'pino', 'pino-pretty'],
  },
  plugins: [tailwindcss(), reactRouter()],
}))
