// Shared by playwright.config.ts (which seeds these accounts) and the specs. Test-only values:
// the server never has a default password; the suite passes these through SEED_* variables.
export const PORT = 3210
export const BASE_URL = `http://localhost:${PORT}`
/** The second server, with the local payment sandbox on (billing.spec.ts). */
export const SANDBOX_PORT = 3211
export const SANDBOX_URL = `http://localhost:${SANDBOX_PORT}`

export const ADMIN = { email: 'admin@aether.test', password: 'e2e-Admin-passw0rd!' } as const
export const MEMBER = { email: 'member@aether.test', password: 'e2e-Member-passw0rd!' } as const
