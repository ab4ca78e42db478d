import type { AutomationStep } from '#common/automation-steps.ts'
import type { RecordedChatRequest } from './fake-chat-completions.ts'

// A scripted AI model for the planner and self-repair tests, behind the fake OpenAI-compatible
// endpoint (fake-chat-completions.ts): it reads the page listing our prompts send
// ('[7] textbox "Email" label="Email"') and answers in the schemas our code asks for, choosing
// elements by their words the way a model would. The real AI SDK client does the HTTP.

/** The text of a request's prompt (system and user messages). */
export function promptOf(request: RecordedChatRequest): string {
  return (request.body.messages ?? [])
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n')
}

/** The number of the first listed element whose line mentions every word (any case), or null. */
export function refOf(prompt: string, words: string, role?: string): number | null {
  const wanted = words.toLowerCase()
  for (const line of prompt.split('\n')) {
    const match = /^\[(\d+)\] (\S+) (.*)$/.exec(line)
    if (!match) continue
    if (role && match[2] !== role) continue
    if ((match[3] ?? '').toLowerCase().includes(wanted)) return Number(match[1])
  }
  return null
}

/** One step of a planner script: the element by its words instead of its number. */
export interface ScriptedStep {
  type: AutomationStep['type'] | 'guard'
  /** guard: what to do when its text is shown (or not). */
  then?: 'skip' | 'stop' | 'fail'
  element?: string
  checked?: boolean
  count?: number
  not?: boolean
  action?: 'accept' | 'dismiss'
  role?: string
  url?: string
  text?: string
  field?: string
  all?: boolean
}

/**
 * A planner that answers its script one step per question, then done. Each answer has the
 * fields of the planner's decision schema (model-planner.ts).
 */
export function scriptedPlanner(script: ScriptedStep[]) {
  let next = 0
  return (request: RecordedChatRequest) => {
    const step = script[next]
    next += 1
    if (!step) return { thought: 'The task is done.', done: true, step: null }
    const prompt = promptOf(request)
    return {
      thought: `Next: ${step.type}`,
      done: false,
      step: {
        type: step.type,
        ref: step.element ? refOf(prompt, step.element, step.role) : null,
        url: step.url ?? null,
        text: step.text ?? null,
        key: step.type === 'press' ? 'Enter' : null,
        ms: step.type === 'wait' && !step.element ? 500 : null,
        field: step.field ?? null,
        all: step.all ?? null,
        checked: step.checked ?? null,
        count: step.count ?? null,
        not: step.not ?? null,
        action: step.action ?? null,
        then: step.then ?? null,
      },
    }
  }
}

/** Self-repair that points at the element whose line mentions these words. */
export function scriptedRepair(words: string) {
  return (request: RecordedChatRequest) => ({ ref: refOf(promptOf(request), words), reason: `It says ${words}.` })
}

/** What a broken step's verb lets it act on, as the repair question says it ('Click', 'Type into'…). */
const ROLES_FOR_VERB: [RegExp, string[] | null][] = [
  [/^Click\b/, ['link', 'button', 'checkbox', 'radio', 'tab', 'menuitem', 'option', 'switch']],
  [/^Type into\b/, ['textbox', 'searchbox', 'combobox', 'spinbutton']],
  [/^Choose an option in\b/, ['combobox', 'listbox']],
]
/** Words of a class or id that say nothing of what the element is for. */
const MARKUP_WORDS = new Set([
  'btn',
  'button',
  'link',
  'primary',
  'secondary',
  'item',
  'row',
  'col',
  'wrap',
  'wrapper',
  'box',
  'card',
  'old',
  'new',
])
/** Words that ask for values of a shape a model recognises in the text itself. */
const VALUE_SHAPES: [RegExp, RegExp][] = [
  [/^(?:prices?|costs?|amounts?|totals?|fees?)$/, /(?:[$€£¥]\s?\d|\d[.,]\d{2}\b)/],
  [/^(?:dates?|days?)$/, /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/],
  [/^(?:e-?mails?)$/, /[^\s@"]+@[^\s@"]+\.[a-z]{2,}/i],
]

const stem = (word: string) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word)
const wordsIn = (text: string) =>
  text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(stem)

/** The words and role each way of the broken step names its element by (a CSS or XPath way: the words of its ids and classes). */
function waysOf(prompt: string): { phrase: string; words: string[]; role: string | null }[] {
  const line = /^Every way the step had to find it: (.*)$/m.exec(prompt)?.[1] ?? ''
  return [...line.matchAll(/\{[^{}]*\}/g)].flatMap((match) => {
    const way = JSON.parse(match[0]) as Record<string, string>
    const said = way.name ?? way.text ?? way.header ?? way.id?.replace(/[-_]+/g, ' ')
    if (said) return [{ phrase: said.toLowerCase(), words: wordsIn(said), role: way.by === 'role' ? (way.role ?? null) : null }]
    const markup = way.selector ?? way.path ?? ''
    const names = [...markup.matchAll(/[#.]([A-Za-z][\w-]*)|\[(?:name|aria-label|title)=["']?([^"'\]]+)/g)].map(
      (part) => part[1] ?? part[2] ?? '',
    )
    const words = names.flatMap(wordsIn).filter((word) => word.length > 2 && !MARKUP_WORDS.has(word))
    return words.length ? [{ phrase: '', words, role: null }] : []
  })
}

/**
 * Self-repair as a model answers it from the question alone (docs/decisions/024): what the step did
 * and every way it had, and the page's numbered elements. It chooses the element whose words say
 * what the step's ways said (the whole name, else most of its words, including the words of a CSS
 * way's classes), of a kind the step can act on; values asked for by what they are (prices, dates)
 * are recognised by their shape. Nothing that says so: null, as a careful model answers.
 */
export function repairFromQuestion(request: RecordedChatRequest): { ref: number | null; reason: string } {
  const prompt = promptOf(request)
  const verb = /^The step: (.*)$/m.exec(prompt)?.[1] ?? ''
  const roles = ROLES_FOR_VERB.find(([pattern]) => pattern.test(verb))?.[1] ?? null
  const ways = waysOf(prompt)
  let best: { ref: number; score: number; why: string } | null = null
  for (const line of prompt.split('\n')) {
    const match = /^\[(\d+)\] (\S+) (.*)$/.exec(line)
    if (!match) continue
    const [, ref, role = '', rest = ''] = match
    if (roles && !roles.includes(role)) continue
    const text = rest.toLowerCase()
    const present = new Set(wordsIn(rest.replace(/\b(?:label|placeholder|text|options|type)=/g, ' ')))
    for (const way of ways) {
      let score = 0
      if (way.phrase && text.includes(way.phrase)) score = 3
      else if (way.words.length) {
        const shared = way.words.filter((word) => present.has(word)).length / way.words.length
        if (shared >= 0.5) score = 1 + shared
      }
      if (score === 0 && way.words.some((word) => VALUE_SHAPES.some(([asks, shape]) => asks.test(word) && shape.test(rest)))) score = 1
      if (score > 0 && way.role && way.role === role) score += 0.5
      if (score > (best?.score ?? 0)) best = { ref: Number(ref), score, why: way.phrase || way.words.join(' ') }
    }
  }
  return best ? { ref: best.ref, reason: `It says ${best.why}.` } : { ref: null, reason: 'Nothing on the page says what the step meant.' }
}
