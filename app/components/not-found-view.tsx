import { Link } from 'react-router'
import { MAIN_CONTENT_ID } from './layout/skip-link.tsx'

export function NotFoundView() {
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center outline-none"
    >
      <h1 className="text-6xl font-bold tracking-tight">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <Link to="/" className="text-primary underline underline-offset-4 hover:no-underline">
        Return to Home
      </Link>
    </main>
  )
}
