export interface ServerEvent {
  event: string
  data: string
}

/** Reads server-sent events from a response body, one complete event (blank-line terminated) at a time. */
export function eventReader(response: Response) {
  if (!response.body) throw new Error('the response has no body')
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''

  async function next(timeoutMs = 5000): Promise<ServerEvent> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const lines = block.split('\n')
        // Comment lines (heartbeats) are not events.
        if (lines.every((line) => line.startsWith(':'))) continue
        const field = (name: string) =>
          lines
            .filter((line) => line.startsWith(`${name}:`))
            .map((line) => line.slice(name.length + 1).trimStart())
            .join('\n')
        return { event: field('event') || 'message', data: field('data') }
      }
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw new Error('no event arrived in time')
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no event arrived in time')), remaining)
      })
      const read = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer))
      if (read.done) throw new Error('the stream ended')
      buffer += decoder.decode(read.value, { stream: true })
    }
  }

  return { next, cancel: () => reader.cancel() }
}
