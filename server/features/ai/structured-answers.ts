import type { z } from 'zod'
import { AiProviderError, chatModelOf, duration, toProviderError } from './provider.ts'

/** What one question to the model may cost at most (docs/decisions/020). */
export interface AnswerBounds {
  /** Tokens the answer may take. */
  maxOutputTokens: number
  /** The whole call, first byte to last. */
  timeoutMs: number
  signal?: AbortSignal
}

export interface StructuredAnswer<T> {
  value: T
  /** Tokens the call used (prompt and answer), as the provider counted them. */
  tokens: number
}

/**
 * Questions to the AI model whose answers must fit a schema (the AI SDK's structured output: a
 * JSON Schema in `response_format`, the answer checked against it). `kind: 'offline'` when no
 * model is configured: the features that ask use their offline forms then.
 */
export interface StructuredAnswers {
  kind: 'openai-compatible' | 'offline'
  model: string | null
  answer<T>(
    question: { schema: z.ZodType<T>; name: string; system: string; prompt: string },
    bounds: AnswerBounds,
  ): Promise<StructuredAnswer<T>>
}

export function createStructuredAnswers(options: { baseUrl?: string; apiKey?: string; model?: string }): StructuredAnswers {
  if (!options.baseUrl || !options.model) {
    return {
      kind: 'offline',
      model: null,
      answer: () => Promise.reject(new AiProviderError('No AI model is configured (AI_BASE_URL).')),
    }
  }
  const { model, host } = chatModelOf({ baseUrl: options.baseUrl, apiKey: options.apiKey, model: options.model })
  return {
    kind: 'openai-compatible',
    model: options.model,
    async answer(question, bounds) {
      const controller = new AbortController()
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        controller.abort()
      }, bounds.timeoutMs)
      const cancel = () => controller.abort()
      bounds.signal?.addEventListener('abort', cancel, { once: true })
      try {
        const { generateText, Output } = await import('ai')
        const result = await generateText({
          model: await model(),
          system: question.system,
          prompt: question.prompt,
          output: Output.object({ schema: question.schema, name: question.name }),
          maxOutputTokens: bounds.maxOutputTokens,
          temperature: 0,
          maxRetries: 1,
          abortSignal: controller.signal,
          // Not every endpoint holds to OpenAI's strict schema rules; the answer is checked here anyway.
          providerOptions: { ai: { strictJsonSchema: false } },
        })
        return { value: result.output, tokens: result.usage.totalTokens ?? 0 }
      } catch (error) {
        if (timedOut) throw new AiProviderError(`The AI provider did not answer within ${duration(bounds.timeoutMs)}.`)
        if (error instanceof Error && error.name === 'AI_NoObjectGeneratedError') {
          throw new AiProviderError('The AI model answered in a shape the request did not allow.')
        }
        throw await toProviderError(error, host)
      } finally {
        clearTimeout(timer)
        bounds.signal?.removeEventListener('abort', cancel)
      }
    },
  }
}
