import { data, useLocation } from 'react-router'
import { useEffect } from 'react'
import type { Route } from './+types/not-found'
import { NotFoundView } from '#app/components/not-found-view.tsx'

// The request log records the missing path with its 404 status.
export function loader() {
  return data(null, { status: 404 })
}

export const meta: Route.MetaFunction = () => [{ title: 'Page not found | Aether' }, { name: 'robots', content: 'noindex' }]

export default function NotFound() {
  const location = useLocation()
  useEffect(() => {
    console.warn('404 Error: User attempted to access non-existent route:', location.pathname)
  }, [location.pathname])
  return <NotFoundView />
}
