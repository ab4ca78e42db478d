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
  type: 'navigate' | 'click' | 'type' | 'select' | 'press' | 'wait' | 'extract' | 'screenshot' | 'assertText'
  element?: string
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
      },
    }
  }
}

/** Self-repair that points at the element whose line mentions these words. */
export function scriptedRepair(words: string) {
  return (request: RecordedChatRequest) => ({ ref: refOf(promptOf(request), words), reason: `It says ${words}.` })
}
