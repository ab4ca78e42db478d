import { data, useLocation } from 'react-router'
import { useEffect } from 'react'
import { NotFoundView } from '#app/components/not-found-view.tsx'
import { privatePageMeta } from '#app/lib/seo.ts'

// The request log records the missing path with its 404 status.
export function loader() {
  return data(null, { status: 404 })
}

export const meta = privatePageMeta('Page not found')

export default function NotFound() {
  const location = useLocation()
  useEffect(() => {
    console.warn('404 Error: User attempted to access non-existent route:', location.pathname)
  }, [location.pathname])
  return <NotFoundView />
}
