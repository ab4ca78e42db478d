import { useEffect, useState } from 'react'
import type { WxtStorageItem } from 'wxt/utils/storage'

/** A stored item's value, kept current as any part of the extension changes it; undefined while it is read. */
export function useStoredItem<T>(item: WxtStorageItem<T, Record<string, unknown>>): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined)
  useEffect(() => {
    let current = true
    void item.getValue().then((stored) => current && setValue(() => stored))
    const unwatch = item.watch((changed) => setValue(() => changed))
    return () => {
      current = false
      unwatch()
    }
  }, [item])
  return value
}
