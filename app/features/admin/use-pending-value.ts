import { useState } from 'react'

/**
 * The value a control shows while its change is on the way: what the admin just chose, until the
 * fetcher is idle again; then the stored value speaks (the new one after success, the old one after
 * the error toast). A controlled checkbox bound only to the stored value would snap back on click.
 */
export function usePendingValue<T>(stored: T, fetcherState: 'idle' | 'loading' | 'submitting') {
  const [requested, setRequested] = useState<{ value: T } | null>(null)
  const [wasBusy, setWasBusy] = useState(false)
  const busy = fetcherState !== 'idle'
  if (busy !== wasBusy) {
    setWasBusy(busy)
    if (!busy) setRequested(null)
  }
  return [requested ? requested.value : stored, (value: T) => setRequested({ value })] as const
}
