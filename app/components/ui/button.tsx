import { cloneElement, isValidElement, type ComponentProps, type ReactElement } from 'react'
import { cn } from '#app/lib/cn.ts'

const BASE =
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0'

const VARIANTS = {
  default: 'bg-primary text-primary-foreground hover:bg-primary/90',
  destructive: 'bg-destructive text-destructive-foreground hover:bg-destructive/90',
  outline: 'border border-input bg-background hover:bg-accent hover:text-accent-foreground',
  secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
  ghost: 'hover:bg-accent hover:text-accent-foreground',
  link: 'text-primary underline-offset-4 hover:underline',
} as const

const SIZES = {
  default: 'h-10 px-4 py-2',
  sm: 'h-9 rounded-md px-3',
  lg: 'h-11 rounded-md px-6 text-base',
  icon: 'size-10',
} as const

function buttonClasses(options: { variant?: keyof typeof VARIANTS | null; size?: keyof typeof SIZES | null; className?: string } = {}) {
  return cn(BASE, VARIANTS[options.variant ?? 'default'], SIZES[options.size ?? 'default'], options.className)
}

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: keyof typeof VARIANTS | null
  size?: keyof typeof SIZES | null
  /** Style the single child (a link, usually) as the button instead of rendering a <button>. */
  asChild?: boolean
}

export function Button({ className, variant, size, asChild = false, children, ...props }: ButtonProps) {
  const classes = buttonClasses({ variant, size, className })
  if (asChild && isValidElement(children)) {
    const child = children as ReactElement<{ className?: string }>
    return cloneElement(child, { ...(props as object), className: cn(classes, child.props.className) })
  }
  return (
    <button className={classes} {...props}>
      {children}
    </button>
  )
}
