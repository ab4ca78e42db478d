import type { Context } from 'hono'
import { Forbidden, Unauthorized } from '#common/errors.ts'
import type { SessionUser } from '#server/features/auth/auth.service.ts'
import type { AppEnv } from './app-env.ts'

export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.get('user')
  if (!user) throw new Unauthorized()
  return user
}

export function requireAdmin(c: Context<AppEnv>): SessionUser {
  const user = requireUser(c)
  if (user.profile.role !== 'admin') throw new Forbidden('Admin access required.')
  return user
}
