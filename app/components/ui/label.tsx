import * as LabelPrimitive from '@radix-ui/react-label'
import type * as React from 'react'
import { cn } from '#app/lib/cn.ts'

export function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return <LabelPrimitive.Root className={cn('text-sm leading-none font-medium', className)} {...props} />
}
