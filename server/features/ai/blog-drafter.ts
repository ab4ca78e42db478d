import { BLOG_LENGTH_WORDS, type BlogDraftRequest } from '#common/ai.ts'
import { streamOfflineDraft } from './offline-draft.ts'
import { AiProviderError, chatModelOf, duration, toProviderError } from './provider.ts'

export { AiProviderError }

/**
 * How to reach an OpenAI-compatible chat-completions endpoint (env: AI_BASE_URL, AI_API_KEY,
 * AI_MODEL, AI_TIMEOUT_MS). Without `baseUrl`, drafts are written offline from a template.
 */
export interface BlogDrafterOptions {
  /** For example https://api.openai.com/v1; requests go to `${baseUrl}/chat/completions`. */
  baseUrl?: string
  apiKey?: string
  /** Required with `baseUrl`, for example gpt-4o-mini. */
  model?: string
  /** The whole generation, first byte to last (default 60 s). */
  timeoutMs?: number
  /** Retries of the first request on 429 and 5xx answers (default 1). */
  maxRetries?: number
}

export interface BlogDrafter {
  kind: 'openai-compatible' | 'offline'
  model: string | null
  /** The Markdown draft, piece by piece. Throws AiProviderError when the provider fails. */
  stream(input: BlogDraftRequest, signal?: AbortSignal): AsyncIterable<string>
}

const DEFAULT_AI_TIMEOUT_MS = 60_000

export function createBlogDrafter(options: BlogDrafterOptions = {}): BlogDrafter {
  if (!options.baseUrl) return { kind: 'offline', model: null, stream: (input, signal) => streamOfflineDraft(input, signal) }
  if (!options.model) throw new Error('AI_MODEL is required when AI_BASE_URL is set.')
  return createOpenAiCompatibleDrafter({ ...options, baseUrl: options.baseUrl, model: options.model })
}

function createOpenAiCompatibleDrafter(options: BlogDrafterOptions & { baseUrl: string; model: string }): BlogDrafter {
  const { model, host } = chatModelOf({ baseUrl: options.baseUrl, apiKey: options.apiKey, model: options.model })
  const timeoutMs = options.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS

  return {
    kind: 'openai-compatible',
    model: options.model,
    async *stream(input, signal) {
      const controller = new AbortController()
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        controller.abort()
      }, timeoutMs)
      const cancel = () => controller.abort()
      signal?.addEventListener('abort', cancel, { once: true })
      if (signal?.aborted) cancel()
      const timeoutError = () => new AiProviderError(`The AI provider did not finish within ${duration(timeoutMs)}.`)

      try {
        const { streamText } = await import('ai')
        const result = streamText({
          model: await model(),
          system: SYSTEM_PROMPT,
          prompt: blogPrompt(input),
          maxRetries: options.maxRetries ?? 1,
          abortSignal: controller.signal,
          // Errors reach us through fullStream; the default handler would also print them.
          onError: () => {},
        })
        let wroteText = false
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta' && part.text) {
            wroteText = true
            yield part.text
          } else if (part.type === 'error') {
            throw timedOut ? timeoutError() : await toProviderError(part.error, host)
          } else if (part.type === 'abort') {
            if (timedOut) throw timeoutError()
            return
          }
        }
        if (timedOut) throw timeoutError()
        if (!wroteText && !signal?.aborted) throw new AiProviderError('The AI provider returned no text.')
      } catch (error) {
        if (error instanceof AiProviderError) throw error
        if (timedOut) throw timeoutError()
        if (signal?.aborted) return
        throw await toProviderError(error, host)
      } finally {
        clearTimeout(timer)
        signal?.removeEventListener('abort', cancel)
        // Stops the upstream request when the caller stops reading early.
        controller.abort()
      }
    },
  }
}

const SYSTEM_PROMPT =
  'You are an experienced blog writer. Write original, accurate, well-structured blog posts in Markdown. ' +
  'Answer with the post only: no preamble, no notes to the editor.'

/** The user prompt: everything the admin chose, in words a chat model follows. */
function blogPrompt(input: BlogDraftRequest): string {
  const words = BLOG_LENGTH_WORDS[input.length]
  const lines = [
    `Write a blog post titled "${input.title}".`,
    input.keywords.length > 0
      ? `Keywords to cover naturally: ${input.keywords.join(', ')}.`
      : 'No keywords were given; choose the subtopics yourself.',
    `Tone: ${input.tone}.`,
    `Length: ${input.length} (${words.label}).`,
    'Structure: an engaging introduction paragraph (no H1: the title is shown separately), sections with ## headings, ' +
      'and a ## Conclusion. Use lists and examples where they help.',
  ]
  return lines.join('\n')
}
