import { useSyncExternalStore } from 'react'

const never = () => () => {}

/** False in the server's render and the hydration that matches it; true from then on. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  )
}
