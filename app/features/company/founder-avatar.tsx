import { useId } from 'react'
import { cn } from '#app/lib/cn.ts'

/** Initials of a name: 'Alex Morgan' -> 'AM'. */
function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean)
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts
  return letters.map((part) => part?.[0]?.toUpperCase() ?? '').join('') || '?'
}

/** The founder's avatar: an SVG with their initials, drawn by us (no external image). */
export function FounderAvatar({ name, className }: { name: string; className?: string }) {
  const gradientId = `avatar-gradient-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`
  return (
    <svg viewBox="0 0 96 96" role="img" aria-label={`Portrait of ${name}`} className={cn('size-24 shrink-0 rounded-full', className)}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0%" stopColor="oklch(0.45 0.2 275)" />
          <stop offset="100%" stopColor="oklch(0.42 0.2 320)" />
        </linearGradient>
      </defs>
      <circle cx="48" cy="48" r="48" fill={`url(#${gradientId})`} />
      <text x="48" y="49" textAnchor="middle" dominantBaseline="central" fill="#fff" fontSize="34" fontWeight="600" fontFamily="inherit">
        {initials(name)}
      </text>
    </svg>
  )
}
