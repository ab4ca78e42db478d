import { ArrowLeft } from 'lucide-react'
import type * as React from 'react'
import { Link } from 'react-router'
import { Button } from './button.tsx'

/** The 'Back to Home' (or back-to-anywhere) button at the top of content pages. */
export function BackButton({
  to = '/',
  children = 'Back to Home',
  className,
}: {
  to?: string
  children?: React.ReactNode
  className?: string
}) {
  return (
    <Button asChild variant="ghost" size="sm" className={className ?? '-ml-3'}>
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        {children}
      </Link>
    </Button>
  )
}
