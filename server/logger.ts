import pino from 'pino'
import type { Env } from './env.ts'

export type Logger = pino.Logger

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'isProduction' | 'NODE_ENV'>): Logger {
  const pretty = !env.isProduction && env.NODE_ENV !== 'test' && process.stdout.isTTY
  return pino({
    level: env.LOG_LEVEL,
    base: undefined,
    redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.newPassword', '*.currentPassword'],
    transport: pretty ? { target: 'pino-pretty', options: { ignore: 'pid,hostname', translateTime: 'HH:MM:ss' } } : undefined,
  })
}
