/**
 * Reads that each caller may trust to have begun after it called: a caller joins the read that
 * starts next, never one already under way. That read starts once the event loop has taken in
 * the requests that are waiting (setImmediate, after the poll phase) and the running read has
 * ended, so concurrent requests share one read: many hits cost about one query, and a change
 * committed before a request arrived is always seen by the read it gets.
 */
export function readAfterArrival<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<unknown> | null = null
  let next: Promise<T> | null = null
  const begin = (): Promise<T> => {
    next = null
    const reading = (async () => read())()
    const done = reading.then(
      () => {},
      () => {},
    )
    running = done
    void done.then(() => {
      if (running === done) running = null
    })
    return reading
  }
  return () => {
    next ??= (running ?? Promise.resolve()).then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(begin)
    return next
  }
}
