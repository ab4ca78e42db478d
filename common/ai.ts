import { z } from './zod.ts'

/** The admin's 'Generate with AI' choices (spec: blog editor). */
export const BLOG_TONES = ['informative', 'professional', 'casual', 'enthusiastic', 'technical'] as const
export type BlogTone = (typeof BLOG_TONES)[number]

export const BLOG_LENGTHS = ['short', 'medium', 'long'] as const
export type BlogLength = (typeof BLOG_LENGTHS)[number]

/** Roughly how many words each length asks for; `target` is what the offline drafter aims at. */
export const BLOG_LENGTH_WORDS: Record<BlogLength, { min: number; max: number; target: number; label: string }> = {
  short: { min: 400, max: 600, target: 500, label: 'about 500 words' },
  medium: { min: 800, max: 1200, target: 1000, label: 'about 1000 words' },
  long: { min: 1500, max: 2000, target: 1750, label: '1500 to 2000 words' },
}

export const AI_DRAFT_LIMITS = { title: 200, keywords: 20, keyword: 50, keywordsText: 2000 } as const

/** The toast the spec shows when the admin asks for a draft without a title. */
export const TITLE_REQUIRED = { title: 'Title required', description: 'Please enter a title to generate content' } as const

const text = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(AI_DRAFT_LIMITS.title, `${field} must be at most ${AI_DRAFT_LIMITS.title} characters.`)
    .optional()

/** A comma-separated string or an array of keywords: trimmed, blanks dropped. */
const keywords = z
  .union(
    [
      z.string().max(AI_DRAFT_LIMITS.keywordsText, `Keywords must be at most ${AI_DRAFT_LIMITS.keywordsText} characters.`),
      z.array(z.string({ error: 'Each keyword must be text' })),
    ],
    { error: 'Keywords must be a comma-separated string or a list of strings' },
  )
  .transform((value) => (typeof value === 'string' ? value.split(',') : value).map((keyword) => keyword.trim()).filter(Boolean))
  .pipe(
    z
      .array(z.string().max(AI_DRAFT_LIMITS.keyword, `Each keyword must be at most ${AI_DRAFT_LIMITS.keyword} characters.`))
      .max(AI_DRAFT_LIMITS.keywords, `Use at most ${AI_DRAFT_LIMITS.keywords} keywords.`),
  )

/**
 * POST /api/ai/generate-blog and the admin form. The spec's function took `{ topic, keywords, tone }`;
 * the editor sends `title` and `length`. `topic` and `title` are synonyms (title wins); one is required.
 */
export const blogDraftRequestSchema = z
  .object({
    title: text('Title'),
    topic: text('Topic'),
    keywords: keywords.optional(),
    tone: z.enum(BLOG_TONES, { error: `Tone must be one of: ${BLOG_TONES.join(', ')}` }).default('informative'),
    length: z.enum(BLOG_LENGTHS, { error: `Length must be one of: ${BLOG_LENGTHS.join(', ')}` }).default('medium'),
  })
  .superRefine((value, ctx) => {
    if (!value.title && !value.topic) ctx.addIssue({ code: 'custom', path: ['title'], message: TITLE_REQUIRED.description })
  })
  .transform(({ title, topic, keywords, tone, length }) => ({ title: title || topic || '', keywords: keywords ?? [], tone, length }))

export type BlogDraftRequest = z.infer<typeof blogDraftRequestSchema>
export type BlogDraftRequestInput = z.input<typeof blogDraftRequestSchema>

const EXCERPT_LENGTH = 150

/**
 * The spec's excerpt rule: the first paragraph stripped of Markdown, its first 150 characters plus
 * an ellipsis. Headings, blockquotes, code fences and rules are not paragraphs.
 */
export function excerptFromMarkdown(markdown: string): string {
  const paragraph = firstParagraph(markdown)
  if (paragraph.length <= EXCERPT_LENGTH) return paragraph
  return `${paragraph.slice(0, EXCERPT_LENGTH).trimEnd()}...`
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/
const SKIPPED_LINE = [
  /^\s{0,3}#{1,6}(\s|$)/, // ATX heading
  /^\s{0,3}>/, // blockquote
  /^\s{0,3}([-*_])(\s*\1){2,}\s*$/, // thematic break
  /^\s{0,3}(=+|-+)\s*$/, // setext underline
]

const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/

function firstParagraph(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n')
  let fence: string | null = null
  let paragraph: string[] = []
  for (const [index, line] of lines.entries()) {
    const fenceMatch = FENCE.exec(line)
    if (fence) {
      if (fenceMatch?.[1]?.startsWith(fence)) fence = null
      continue
    }
    if (fenceMatch?.[1]) {
      const done = finish(paragraph)
      if (done) return done
      paragraph = []
      fence = fenceMatch[1]
      continue
    }
    const nextLine = lines[index + 1] ?? ''
    const isSetextTitle = paragraph.length === 0 && /^\s{0,3}(=+|-+)\s*$/.test(nextLine) && line.trim() !== ''
    if (line.trim() === '' || isSetextTitle || SKIPPED_LINE.some((pattern) => pattern.test(line))) {
      const done = finish(paragraph)
      if (done) return done
      paragraph = []
      continue
    }
    paragraph.push(line)
  }
  return finish(paragraph)
}

/** The paragraph as plain text, or '' when nothing readable is left (for example, an image alone). */
function finish(lines: string[]): string {
  return stripMarkdown(lines.map((line) => line.replace(LIST_MARKER, '')).join(' '))
}

function stripMarkdown(text: string): string {
  // Inline code keeps its text verbatim; everything else loses its Markdown.
  return text
    .split(/(`+[^`]*?`+)/)
    .map((part, index) => (index % 2 === 1 ? part.replace(/^`+\s?|\s?`+$/g, '') : stripInline(part)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
}

function stripInline(text: string): string {
  return text
    .replace(/<[^>]+>/g, '') // HTML tags
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)(.+?)(?<=\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|\W)_(?=\S)(.+?)(?<=\S)_(?!\w)/g, '$1$2')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, '$1') // escapes
}

/** What one call to the AI model costs (planning, self-repair): docs/decisions/020. */
export const MODEL_CALL_CREDITS = 1
