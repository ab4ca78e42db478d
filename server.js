// The file `node` starts. Production runs the bundled server (npm run build); development
// loads the TypeScript sources through Vite, with hot reload on the same port.
const production = process.env.NODE_ENV === 'production'

if (production) {
  const { startServer } = await import('./build/server/index.js')
  await startServer()
} else {
  const { createServer } = await import('vite')
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' })
  const { startServer } = await vite.ssrLoadModule('/server/main.ts')
  await startServer({ vite })
}
