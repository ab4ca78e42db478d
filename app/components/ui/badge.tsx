import type * as React from 'react'
import { cn } from '#app/lib/cn.ts'

const VARIANTS = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-secondary text-secondary-foreground',
  outline: 'text-foreground',
} as const

export function Badge({ className, variant = 'default', ...props }: React.ComponentProps<'span'> & { variant?: keyof typeof VARIANTS }) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', VARIANTS[variant], className)}
      {...props}
    />
  )
}
