import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { SessionService } from '#server/features/auth/session.service.ts'
import { refusal, type AccessRule, type SignedInEnv } from './access.ts'
import type { AppEnv } from './app-env.ts'

const HEARTBEAT_MS = 25_000

/**
 * A server-sent event stream that lives only as long as the right to read it: before each event is
 * delivered, and at each heartbeat, it asks whether the session (or API key) that opened it still
 * works and still passes the route's access rule. A sign-out, an ended session, a revoked key, a
 * demotion or a removal from the workspace ends the stream; nothing is delivered after it.
 */
export function liveStream<T>(
  c: Context<AppEnv & SignedInEnv>,
  options: {
    sessions: SessionService
    rule: AccessRule
    event: string
    /** Subscribes to the events to send; returns the unsubscribe function. `end` closes the stream (after what was sent). */
    subscribe: (send: (data: T) => void, end: () => void) => () => void
  },
) {
  const member = c.get('member')
  const stillAllowed = async () => {
    const role = await options.sessions.currentRole(member).catch(() => null)
    if (role === null) return false
    // Removed from the workspace, or demoted below the rule, since the stream opened: it ends.
    const workspace = options.rule.workspaceRole ? await options.sessions.currentWorkspace(member).catch(() => null) : member.workspace
    return refusal({ ...member, profile: { ...member.profile, role }, workspace }, options.rule) === null
  }
  return streamSSE(c, async (stream) => {
    // One delivery at a time, in order, each after its own check.
    let queue = Promise.resolve()
    const end = () => {
      unsubscribe()
      void stream.close()
    }
    const unsubscribe = options.subscribe(
      (data) => {
        queue = queue.then(async () => {
          if (stream.closed || stream.aborted) return
          if (!(await stillAllowed())) return end()
          await stream.writeSSE({ event: options.event, data: JSON.stringify(data) })
        })
      },
      () => {
        queue = queue.then(end)
      },
    )
    stream.onAbort(unsubscribe)
    await stream.writeSSE({ event: 'ready', data: '{}' })
    // Comments keep proxies from closing an idle stream.
    while (!stream.aborted && !stream.closed) {
      await stream.sleep(HEARTBEAT_MS)
      if (stream.aborted || stream.closed) break
      if (!(await stillAllowed())) break
      await stream.write(': heartbeat\n\n')
    }
    end()
  })
}
