import { describe, expect, it } from 'vitest'
import { cn } from './cn.ts'

describe('cn', () => {
  it('joins conditional class names like clsx', () => {
    expect(cn('a', false, null, undefined, ['b', { c: true, d: false }])).toBe('a b c')
    expect(cn()).toBe('')
  })

  it('lets a later utility of the same kind replace an earlier one', () => {
    expect(cn('h-10 px-4 py-2', 'h-12')).toBe('px-4 py-2 h-12')
    expect(cn('p-6 pt-0', 'p-4')).toBe('pt-0 p-4')
    expect(cn('text-sm text-muted-foreground', 'text-lg')).toBe('text-muted-foreground text-lg')
    expect(cn('text-sm text-muted-foreground', 'text-primary')).toBe('text-sm text-primary')
    expect(cn('bg-primary hover:bg-primary/90', 'bg-destructive')).toBe('hover:bg-primary/90 bg-destructive')
    expect(cn('rounded-md border border-input', 'rounded-full border-primary')).toBe('border rounded-full border-primary')
    expect(cn('font-medium font-sans', 'font-bold')).toBe('font-sans font-bold')
    expect(cn('flex flex-col gap-1.5', 'grid gap-4')).toBe('flex-col grid gap-4')
    expect(cn('max-w-2xl min-h-24', 'max-w-none')).toBe('min-h-24 max-w-none')
    expect(cn('shadow-sm', 'shadow-none')).toBe('shadow-none')
    expect(cn('ring-2 ring-ring ring-offset-2 ring-offset-background', 'ring-0')).toBe(
      'ring-ring ring-offset-2 ring-offset-background ring-0',
    )
    expect(cn('-mt-2', 'mt-4')).toBe('mt-4')
  })

  it('keeps utilities that only look alike', () => {
    expect(cn('p-6', 'pt-0')).toBe('p-6 pt-0')
    expect(cn('hidden md:flex')).toBe('hidden md:flex')
    expect(cn('border border-t-2 border-primary')).toBe('border border-t-2 border-primary')
    expect(cn('gap-2 gap-x-4')).toBe('gap-2 gap-x-4')
    expect(cn('[&_svg]:size-4 size-10')).toBe('[&_svg]:size-4 size-10')
    expect(cn('data-[state=active]:bg-background bg-muted')).toBe('data-[state=active]:bg-background bg-muted')
    expect(cn('outline-none outline-2')).toBe('outline-none outline-2')
  })

  it('drops exact duplicates', () => {
    expect(cn('foo bar', 'foo')).toBe('bar foo')
  })

  it('answers a repeated combination the same way, whichever way its parts were given', () => {
    const first = cn('h-10 px-4', 'h-12')
    expect(cn('h-10 px-4', 'h-12')).toBe(first)
    expect(cn(['h-10', { 'px-4': true }], 'h-12')).toBe(first)
    expect(cn('h-10 px-4', 'h-14')).toBe('px-4 h-14')
  })
})
