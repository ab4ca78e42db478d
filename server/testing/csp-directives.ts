/** A Content-Security-Policy header as its directives: name -> values. */
export function cspDirectives(csp: string | null | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) map.set(name, values)
  }
  return map
}
