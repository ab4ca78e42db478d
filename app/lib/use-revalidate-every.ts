import { useEffect, useRef } from 'react'
import { useRevalidator } from 'react-router'
import { revalidateLatest } from './revalidate.ts'

/**
 * Runs the page's loaders again every `ms` while `active` (and the tab is visible): for what no
 * event tells the page about.
 */
export function useRevalidateEvery(ms: number, active: boolean) {
  const revalidator = useRevalidator()
  const latest = useRef(revalidator.revalidate)
  useEffect(() => {
    latest.current = revalidator.revalidate
  })
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') revalidateLatest(latest.current)
    }, ms)
    return () => clearInterval(timer)
  }, [ms, active])
}
