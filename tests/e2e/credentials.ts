// Shared by playwright.config.ts (which seeds these accounts) and the specs. Test-only values:
// the server never has a default password; the suite passes these through SEED_* variables.
/** E2E_PORT moves both suite servers (for two suites on one machine); the sandbox takes the next port. */
export const PORT = Number(process.env.E2E_PORT ?? 3210)
export const BASE_URL = `http://localhost:${PORT}`
/** The second server, with the local payment sandbox on (billing.spec.ts). */
export const SANDBOX_PORT = PORT + 1
export const SANDBOX_URL = `http://localhost:${SANDBOX_PORT}`

export const ADMIN = { email: 'admin@aether.test', password: 'e2e-Admin-passw0rd!' } as const
export const MEMBER = { email: 'member@aether.test', password: 'e2e-Member-passw0rd!' } as const
