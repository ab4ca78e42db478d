import { setImmediate as nextTick } from 'node:timers/promises'
import { BLOG_LENGTH_WORDS, type BlogDraftRequest, type BlogLength, type BlogTone } from '#common/ai.ts'

/** The first line of every offline draft, so nobody publishes one thinking a model wrote it. */
export const OFFLINE_NOTICE =
  '> Offline draft: no AI provider is configured (AI_BASE_URL, AI_API_KEY, AI_MODEL), so this draft was assembled from a template. Review and rewrite it before publishing.'

const SECTIONS: Record<BlogLength, { min: number; max: number }> = {
  short: { min: 3, max: 4 },
  medium: { min: 4, max: 6 },
  long: { min: 6, max: 8 },
}

/** Sections used when the admin gave fewer keywords than the length needs. `subject` reads as a noun phrase. */
const THEMES = [
  { heading: 'Why {title} matters', subject: 'the value of {title}' },
  { heading: 'Getting started', subject: 'the first steps' },
  { heading: 'Common mistakes to avoid', subject: 'the usual mistakes' },
  { heading: 'Best practices', subject: 'good habits' },
  { heading: 'Measuring results', subject: 'measuring progress' },
  { heading: 'Tools and resources', subject: 'the right tools' },
  { heading: 'Looking ahead', subject: 'what comes next' },
  { heading: 'Questions people often ask', subject: 'the questions readers ask' },
]

interface ToneVoice {
  intro: string[]
  headings: string[]
  voice: string[]
  conclusion: string[]
}

const TONES: Record<BlogTone, ToneVoice> = {
  informative: {
    intro: [
      'This article explains {title}: what it is, why it matters and how to approach it step by step.',
      'If you want a clear overview of {title}, this guide walks through the essentials in plain language.',
      'Here is a practical introduction to {title}, with the key ideas laid out in a logical order.',
    ],
    headings: ['Understanding {subject}', 'A closer look at {subject}', 'What to know about {subject}', 'The basics of {subject}'],
    voice: [
      'In short, a clear picture of the basics makes every later decision easier.',
      'It helps to separate what is essential from what is merely nice to have.',
      'A small example often explains more than a long definition.',
      'The details vary from case to case, but the principle stays the same.',
      'Reliable sources and real examples are worth more than general claims.',
      'Each step builds on the previous one, so the order matters.',
    ],
    conclusion: [
      'To sum up, {title} rewards a steady, informed approach: learn the fundamentals, apply them and review the results.',
      'With these points in mind, you have a solid base for working with {title} and for going further.',
    ],
  },
  professional: {
    intro: [
      '{title} has become a priority for teams that want dependable, measurable results.',
      'For organisations weighing their options, {title} deserves a structured evaluation.',
      'This briefing sets out how to approach {title} with clear goals, owners and measures of success.',
    ],
    headings: [
      '{subject}: what this means for your organisation',
      'Evaluating {subject}',
      'A practical approach to {subject}',
      'Managing {subject}',
    ],
    voice: [
      'Stakeholders should agree on the objectives before work begins.',
      'Document the decision so that the reasoning survives changes in the team.',
      'A short pilot reduces risk and produces evidence for the next decision.',
      'Assign a clear owner and review progress at a fixed interval.',
      'Budget and timelines should be visible to everyone involved.',
      'Consistent reporting keeps leadership informed without extra meetings.',
    ],
    conclusion: [
      'In summary, {title} delivers the most value when it is planned, owned and measured like any other investment.',
      'Teams that treat {title} as an ongoing discipline, rather than a one-off project, see the most durable results.',
    ],
  },
  casual: {
    intro: [
      "Let's talk about {title}. It sounds bigger than it is, and you can get going today.",
      "So you're curious about {title}? Good news: the basics are easier than they look.",
      'Ever wondered how people actually handle {title}? Grab a coffee and let us walk through it together.',
    ],
    headings: [
      'Let us talk about {subject}',
      'A quick word on {subject}',
      'Why you should care about {subject}',
      'Getting comfy with {subject}',
    ],
    voice: [
      'Honestly, nobody gets this perfect on the first try, and that is fine.',
      'Start small, see what sticks and tweak as you go.',
      'Think of it like learning a new recipe: the second attempt is always better.',
      'Do not overthink it; a rough first version beats a perfect plan that never ships.',
      'Ask a friend to take a look; fresh eyes spot things you will miss.',
      'Keep it fun, because you will stick with it longer that way.',
    ],
    conclusion: [
      'That is the gist of {title}. Try one idea this week and see how it goes.',
      'And that is it! {title} is less scary once you take the first step, so go give it a shot.',
    ],
  },
  enthusiastic: {
    intro: [
      '{title} is one of the most exciting topics around right now, and here is why!',
      'Get ready: {title} can change the way you work, and it is easier to start than you think!',
      'There has never been a better moment to dive into {title}. Let us explore what makes it so powerful!',
    ],
    headings: ['Why {subject} can change the game', 'The power of {subject}', 'Getting the most out of {subject}', 'Unlocking {subject}'],
    voice: [
      'This is where things get really interesting!',
      'The results can be genuinely impressive, even with modest effort.',
      'Every small win builds momentum for the next one!',
      'Once it clicks, you will wonder how you managed without it!',
      'Imagine what you could build with this in a few months!',
      'The community around this topic is full of energy and great ideas!',
    ],
    conclusion: [
      '{title} is full of potential, and the best time to start is now. Take the first step today!',
      'The possibilities of {title} are huge. Pick one idea from this post and put it into action right away!',
    ],
  },
  technical: {
    intro: [
      'This post examines {title} from an implementation perspective: the moving parts, the trade-offs and the failure modes.',
      'Below is a technical walkthrough of {title}, focused on design decisions and how to verify them.',
      'We look at {title} in depth: the architecture, the constraints and the measurements that matter.',
    ],
    headings: ['How {subject} works', 'Implementing {subject}', 'Trade-offs in {subject}', '{subject} under the hood'],
    voice: [
      'Measure before optimising; intuition about bottlenecks is often wrong.',
      'Make the behaviour observable with logs and metrics from the start.',
      'Prefer a simple design with explicit limits over a clever one with hidden state.',
      'Write down the failure modes and test each of them deliberately.',
      'Version every configuration change so that a rollback is one command away.',
      'Benchmark under realistic load, not only on a developer machine.',
    ],
    conclusion: [
      'In conclusion, {title} is manageable with explicit constraints, good instrumentation and incremental changes.',
      'The key takeaway: treat {title} as an engineering problem, with hypotheses you can test and results you can measure.',
    ],
  },
}

/** Tone-neutral sentences about one section's subject; none starts with a placeholder. */
const BODY = [
  'When it comes to {subject}, small decisions add up quickly.',
  'Many readers first meet {subject} while looking into {title}.',
  'A good way to begin with {subject} is to write down what you want to achieve.',
  'The most common question about {subject} is where to start, and the answer is usually simpler than expected.',
  'It is worth checking how {subject} fits with the rest of your plans for {title}.',
  'Experience shows that regular reviews are the best way to keep {subject} on track.',
  'Before investing heavily in {subject}, test the idea on a small scale.',
  'One useful habit is to keep notes on what you tried with {subject} and what happened.',
  'Clear examples make {subject} much easier to explain to others.',
  'Over time, consistency matters more than intensity for {subject}.',
  'A checklist for {subject} keeps the important steps from being forgotten.',
  'People who succeed with {subject} usually focus on a few priorities at a time.',
  'The right level of detail for {subject} depends on your audience and your goals.',
  'Feedback from real users is the fastest way to improve how you handle {subject}.',
  'Keeping things simple is often the best strategy for {subject}.',
  'In practice, decisions about {subject} touch several parts of {title} at once.',
  'A realistic timeline makes {subject} far less stressful.',
  'The benefits of {subject} become clearer once you track a few simple numbers.',
  'Good documentation turns {subject} from guesswork into a repeatable process.',
  'For most teams, progress with {subject} comes step by step rather than all at once.',
  'Comparing a few approaches to {subject} side by side helps you choose with confidence.',
  'Even a modest investment in {subject} can make a visible difference.',
  'It pays to revisit {subject} whenever your goals for {title} change.',
  'Most problems with {subject} can be traced back to unclear expectations.',
]

const SENTENCES_PER_PARAGRAPH = 4

/** A Markdown draft from the title, keywords, tone and length: the same input always gives the same text. */
export function writeOfflineDraft(input: BlogDraftRequest): string {
  const { title, keywords, tone, length } = input
  const voice = TONES[tone]
  const seed = hash(JSON.stringify([title, keywords, tone, length]))
  const pick = <T>(items: readonly T[], offset = 0): T => items[(seed + offset) % items.length] as T
  const fill = (template: string, subject = title) => template.replaceAll('{title}', title).replaceAll('{subject}', subject)

  const sections = planSections(keywords, length, seed, voice, fill)
  const target = BLOG_LENGTH_WORDS[length].target

  const intro = [fill(pick(voice.intro))]
  if (keywords.length > 0) intro.push(`Along the way, we cover ${listOf(keywords)}.`)
  intro.push(fill(pick(BODY, 3)), fill(pick(voice.voice, 1)))
  const conclusionText = [fill(pick(voice.conclusion)), fill(pick(voice.voice, 2))]
  if (keywords.length > 0) conclusionText.push(`Whether your focus is ${listOf(keywords.slice(0, 3), 'or')}, the same principles apply.`)

  const fixedWords = countWords([OFFLINE_NOTICE, ...intro, ...conclusionText].join(' '))
  const perSection = Math.max(60, Math.round((target - fixedWords) / sections.length))

  const parts = [OFFLINE_NOTICE, paragraphs(intro)]
  for (const [index, section] of sections.entries()) {
    const sentences: string[] = []
    let words = 0
    for (let step = 0; words < perSection; step++) {
      // Every fourth sentence carries the tone; the others come from the shared bank, without repeats in a section.
      const sentence =
        step % 4 === 3
          ? fill(voice.voice[(seed + 3 + index * 2 + (step - 3) / 4) % voice.voice.length] ?? '', section.subject)
          : fill(BODY[(seed + index * 5 + step * 7) % BODY.length] ?? '', section.subject)
      sentences.push(sentence)
      words += countWords(sentence)
    }
    parts.push(`## ${section.heading}`, paragraphs(sentences))
  }
  parts.push('## Conclusion', paragraphs(conclusionText))
  return `${parts.join('\n\n')}\n`
}

/** Streams the offline draft in small pieces, like a model would, so the editor behaves the same. */
export async function* streamOfflineDraft(input: BlogDraftRequest, signal?: AbortSignal, chunkWords = 12): AsyncGenerator<string> {
  const tokens = writeOfflineDraft(input).match(/\s*\S+/g) ?? []
  for (let start = 0; start < tokens.length; start += chunkWords) {
    if (signal?.aborted) return
    await nextTick()
    const chunk = tokens.slice(start, start + chunkWords).join('')
    yield start + chunkWords >= tokens.length ? `${chunk}\n` : chunk
  }
}

function planSections(
  keywords: string[],
  length: BlogLength,
  seed: number,
  voice: ToneVoice,
  fill: (template: string, subject?: string) => string,
) {
  const { min, max } = SECTIONS[length]
  const count = Math.min(max, Math.max(min, keywords.length))
  const sections = keywords.slice(0, count).map((keyword, index) => ({
    heading: capitalise(fill(voice.headings[(seed + index) % voice.headings.length] ?? '', keyword)),
    subject: keyword,
  }))
  for (let index = 0; sections.length < count; index++) {
    const theme = THEMES[(seed + index) % THEMES.length] ?? { heading: 'Key points', subject: 'the key points' }
    if (sections.some((section) => section.heading === fill(theme.heading))) continue
    sections.push({ heading: fill(theme.heading), subject: fill(theme.subject) })
  }
  return sections
}

function paragraphs(sentences: string[]): string {
  const blocks: string[] = []
  for (let start = 0; start < sentences.length; start += SENTENCES_PER_PARAGRAPH) {
    blocks.push(sentences.slice(start, start + SENTENCES_PER_PARAGRAPH).join(' '))
  }
  return blocks.join('\n\n')
}

function listOf(items: string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}

/** FNV-1a: a stable choice of templates for each input. */
function hash(text: string): number {
  let value = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index)
    value = Math.imul(value, 0x01000193)
  }
  return value >>> 0
}
