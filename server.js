// The file `node` starts. Production runs the bundled server (npm run build); development
// loads the TypeScript sources through Vite, with hot reload on the same port.
import { createServer } from 'node:http'

// A local .env file, when present, fills variables the environment does not set.
try {
  process.loadEnvFile('.env')
} catch {
  // no .env file: the environment alone configures the server
}

const server = createServer()

if (process.env.NODE_ENV === 'production') {
  const { startServers } = await import('./build/server/index.js')
  await startServers({ server })
} else {
  const { createServer: createViteServer } = await import('vite')
  const vite = await createViteServer({ server: { middlewareMode: true, hmr: { server } }, appType: 'custom' })
  const { startServer } = await vite.ssrLoadModule('/server/main.ts')
  await startServer({ server, vite })
}
