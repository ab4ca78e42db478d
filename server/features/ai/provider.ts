import type { LanguageModel } from 'ai'
import { AppError } from '#common/errors.ts'

// The AI SDK is loaded when a model is first asked (issue 18, cold start): a start
// does not need it, and most deployments use it rarely.

/** The AI provider failed, timed out or could not be reached; the message says which, for the admin's toast. */
export class AiProviderError extends AppError {
  constructor(message: string) {
    super(503, message, 'AI_PROVIDER_ERROR')
  }
}

/**
 * The chat model of an OpenAI-compatible endpoint (env: AI_BASE_URL, AI_API_KEY, AI_MODEL), made
 * at its first use, and its host for messages.
 */
export function chatModelOf(options: { baseUrl: string; apiKey?: string; model: string }): {
  model(): Promise<LanguageModel>
  host: string
} {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  let model: Promise<LanguageModel> | null = null
  return {
    model: () =>
      (model ??= import('@ai-sdk/openai-compatible').then(({ createOpenAICompatible }) =>
        createOpenAICompatible({ name: 'ai', baseURL: baseUrl, apiKey: options.apiKey, supportsStructuredOutputs: true }).chatModel(
          options.model,
        ),
      )),
    host: safeHost(baseUrl),
  }
}

export async function toProviderError(error: unknown, host: string): Promise<AiProviderError> {
  const { APICallError, RetryError } = await import('ai')
  const cause = RetryError.isInstance(error) ? error.lastError : error
  if (APICallError.isInstance(cause)) {
    if (cause.statusCode !== undefined) {
      const detail = providerMessage(cause.responseBody)
      const prefix =
        cause.statusCode === 401 || cause.statusCode === 403
          ? `The AI provider refused the API key (HTTP ${cause.statusCode})`
          : cause.statusCode === 429
            ? 'The AI provider is rate limiting requests (HTTP 429)'
            : `The AI provider answered HTTP ${cause.statusCode}`
      return new AiProviderError(detail ? `${prefix}: ${detail}` : `${prefix}.`)
    }
    return new AiProviderError(`Could not reach the AI provider at ${host}: ${networkReason(cause)}.`)
  }
  const name = cause instanceof Error ? cause.name : ''
  if (name === 'AI_JSONParseError' || name === 'AI_TypeValidationError' || name === 'AI_InvalidResponseDataError') {
    return new AiProviderError('The AI provider sent a malformed response stream.')
  }
  const message = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : ''
  return new AiProviderError(message ? `The AI provider failed: ${truncate(message)}` : 'The AI provider failed.')
}

/** The provider's own explanation, from an OpenAI-style `{ error: { message } }` body, or the body itself. */
function providerMessage(body: string | undefined): string {
  if (!body) return ''
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown }
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message)
    if (typeof message === 'string' && message.trim()) return truncate(message.trim())
  } catch {
    // Not JSON: fall back to the text.
  }
  return truncate(body.replace(/\s+/g, ' ').trim())
}

function networkReason(error: Error): string {
  const cause = (error as { cause?: unknown }).cause
  const code = (cause as { code?: unknown } | undefined)?.code
  if (typeof code === 'string') return code
  const nested = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code
  if (typeof nested === 'string') return nested
  return cause instanceof Error ? cause.message : error.message
}

export function duration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} seconds` : `${ms} ms`
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}...` : text
}

function safeHost(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'the configured address'
  }
}
