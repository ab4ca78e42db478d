import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names; a later Tailwind utility replaces an earlier one of the same kind, so a
 * caller's `className` overrides a component default: cn('h-10 px-4', 'h-12') === 'px-4 h-12'.
 *
 * This is a small stand-in for tailwind-merge, which cost 8 KB gzipped on every page (the JS
 * budget for '/' is 120 KB). It knows the utility kinds our components override; a utility it
 * does not know is never dropped (only an exact duplicate is), so the worst case is an extra class.
 */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs)
  let merged = resolved.get(joined)
  if (merged === undefined) {
    merged = merge(joined)
    // A page uses a few hundred combinations; the limit only guards against unbounded growth.
    if (resolved.size >= RESOLVED_LIMIT) resolved.clear()
    resolved.set(joined, merged)
  }
  return merged
}

/**
 * Answers already worked out, by joined input: the same buttons and cards render again and again
 * (in hydration, where this resolver took about a tenth of the home page's script time, and on
 * the server), so each combination is resolved once.
 */
const resolved = new Map<string, string>()
const RESOLVED_LIMIT = 2000

function merge(joined: string): string {
  const classes = joined.split(' ')
  const seen = new Set<string>()
  const kept: string[] = []
  for (let index = classes.length - 1; index >= 0; index--) {
    const name = classes[index]
    if (!name) continue
    const key = conflictKey(name)
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(name)
  }
  return kept.reverse().join(' ')
}

/** The variants ('md:', 'hover:', 'data-[state=open]:') plus the kind of utility. */
function conflictKey(name: string): string {
  let depth = 0
  let split = -1
  for (let index = 0; index < name.length; index++) {
    const char = name[index]
    if (char === '[' || char === '(') depth++
    else if (char === ']' || char === ')') depth--
    else if (char === ':' && depth === 0) split = index
  }
  const utility = name
    .slice(split + 1)
    .replace(/^!|!$/g, '')
    .replace(/^-/, '')
  return `${name.slice(0, split + 1)}${kind(utility)}`
}

const WORDS: Record<string, string> = {
  ...Object.fromEntries(
    'block inline inline-block flex inline-flex grid inline-grid hidden contents table flow-root list-item'
      .split(' ')
      .map((word) => [word, 'display']),
  ),
  ...Object.fromEntries('static fixed absolute relative sticky'.split(' ').map((word) => [word, 'position'])),
  ...Object.fromEntries('visible invisible collapse'.split(' ').map((word) => [word, 'visibility'])),
  ...Object.fromEntries('uppercase lowercase capitalize normal-case'.split(' ').map((word) => [word, 'case'])),
  ...Object.fromEntries('italic not-italic'.split(' ').map((word) => [word, 'font-style'])),
  ...Object.fromEntries('sr-only not-sr-only'.split(' ').map((word) => [word, 'sr'])),
  border: 'border-w',
  ring: 'ring-w',
}

// Utilities named `<head>-<value>` whose kind is the head (plus an axis: 'max-w', 'gap-x', 'col-span').
const HEADS = new Set(
  'p px py pt pr pb pl ps pe m mx my mt mr mb ml ms me w h size min max gap space inset top right bottom left start end z order basis grow shrink items justify content self place leading tracking opacity duration delay ease transition animate cursor select whitespace line col row auto object aspect overflow overscroll translate scale rotate origin from via to fill stroke underline indent align backdrop blur'.split(
    ' ',
  ),
)
const AXES = /^(x|y|w|h|cols|rows|span|start|end|content|items|self|clamp|offset|flow|blur|saturate|brightness|contrast|grayscale|opacity)$/
const SIDE = /^(x|y|t|r|b|l|s|e|tl|tr|br|bl|ss|se|es|ee)$/
const TEXT_SIZE = /^(xs|sm|base|lg|\d?xl)(\/.*)?$|^\[(\d|length:|calc)/
const WIDTH = /^(\d+|\[\d.*\])$/

function kind(utility: string): string {
  const word = WORDS[utility]
  if (word) return word
  const parts = utility.split('-')
  const head = parts[0] ?? ''
  const rest = parts.slice(1).join('-')
  const second = parts[1] ?? ''
  switch (head) {
    case 'text':
      if (TEXT_SIZE.test(rest)) return 'text-size'
      if (/^(left|center|right|justify|start|end)$/.test(rest)) return 'text-align'
      if (/^(wrap|nowrap|balance|pretty|ellipsis|clip)$/.test(rest)) return `text-${rest}`
      return 'text-color'
    case 'font':
      return /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\[\d)/.test(rest) ? 'font-weight' : 'font-family'
    case 'border':
      if (WIDTH.test(rest)) return 'border-w'
      if (SIDE.test(second))
        return parts.length === 2 || WIDTH.test(parts.slice(2).join('-')) ? `border-w-${second}` : `border-color-${second}`
      if (/^(solid|dashed|dotted|double|hidden|none)$/.test(rest)) return 'border-style'
      return /^(collapse|separate|spacing)/.test(rest) ? utility : 'border-color'
    case 'ring':
      if (WIDTH.test(rest)) return 'ring-w'
      if (second === 'offset') return WIDTH.test(parts.slice(2).join('-')) ? 'ring-offset-w' : 'ring-offset-color'
      return rest === 'inset' ? 'ring-inset' : 'ring-color'
    case 'shadow':
      return /^(2xs|xs|sm|md|lg|xl|2xl|none|inner)?$/.test(rest) ? 'shadow' : 'shadow-color'
    case 'rounded':
      return SIDE.test(second) ? `rounded-${second}` : 'rounded'
    case 'bg':
      if (/^(linear|radial|conic|gradient|none)/.test(rest)) return 'bg-image'
      if (/^(auto|cover|contain)$/.test(rest)) return 'bg-size'
      if (/^(top|bottom|left|right|center)/.test(rest)) return 'bg-position'
      if (/^(clip|origin|blend|repeat|no-repeat|fixed|local|scroll)/.test(rest)) return utility
      return 'bg-color'
    case 'flex':
      if (/^(row|col)/.test(rest)) return 'flex-direction'
      return /^(wrap|nowrap)/.test(rest) ? 'flex-wrap' : 'flex'
    case 'grid':
      return `grid-${second}`
    default:
      if (!HEADS.has(head)) return utility
      return AXES.test(second) && (parts.length > 2 || head === 'backdrop') ? `${head}-${second}` : head
  }
}
