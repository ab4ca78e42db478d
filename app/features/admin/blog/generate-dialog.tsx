import { Sparkles } from 'lucide-react'
import { useRef, useState } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { toast } from '#app/lib/toast.ts'
import { BLOG_LENGTH_WORDS, BLOG_LENGTHS, BLOG_TONES, excerptFromMarkdown, TITLE_REQUIRED } from '#common/ai.ts'
import type { PostDraft } from './post-dialog.tsx'

const FAILED = 'Failed to generate content'

/**
 * 'Generate with AI': the draft streams into view as it is written; when it is done the New Post
 * dialog opens with it as a draft (title, content, excerpt by the spec's rule).
 */
export function GenerateDialog({ onDraft }: { onDraft: (draft: Partial<PostDraft>) => void }) {
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const [running, setRunning] = useState(false)
  const abort = useRef<AbortController | null>(null)

  async function generate(form: HTMLFormElement) {
    const data = new FormData(form)
    const title = String(data.get('title') ?? '').trim()
    if (!title) {
      toast.error(TITLE_REQUIRED.title, { description: TITLE_REQUIRED.description })
      return
    }
    const controller = new AbortController()
    abort.current = controller
    setRunning(true)
    setText('')
    let content = ''
    try {
      const response = await fetch('/api/ai/generate-blog', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/plain' },
        body: JSON.stringify({ title, keywords: String(data.get('keywords') ?? ''), tone: data.get('tone'), length: data.get('length') }),
        signal: controller.signal,
      })
      if (!response.ok || !response.body) {
        const answer = (await response.json().catch(() => null)) as { message?: string } | null
        throw new Error(answer?.message ?? FAILED)
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        content += value
        setText(content)
      }
      if (!content.trim() || content.includes('[Generation stopped:')) {
        throw new Error(content.match(/\[Generation stopped: (.*)\]/)?.[1] ?? FAILED)
      }
      toast.success('Content generated')
      setOpen(false)
      onDraft({ title, content: content.trim(), excerpt: excerptFromMarkdown(content), status: 'draft' })
    } catch (error) {
      if (controller.signal.aborted) return
      toast.error('Error generating content', { description: error instanceof Error && error.message ? error.message : FAILED })
    } finally {
      setRunning(false)
      abort.current = null
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) abort.current?.abort()
        setOpen(next)
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="outline">
          <Sparkles aria-hidden="true" /> Generate with AI
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Generate with AI</DialogTitle>
          <DialogDescription>A first draft to edit. It opens as a draft post; nothing is published.</DialogDescription>
        </DialogHeader>
        <form
          className="space-y-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            void generate(event.currentTarget)
          }}
        >
          <div className="space-y-2">
            <Label htmlFor="ai-title">Title</Label>
            <Input id="ai-title" name="title" maxLength={200} placeholder="5 ways to automate your weekly reports" />
          </div>
          <div className="space-y-2">
            <Label htmlFor="ai-keywords">Keywords (comma separated)</Label>
            <Input id="ai-keywords" name="keywords" maxLength={2000} placeholder="automation, reports, spreadsheets" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="ai-tone">Tone</Label>
              <Select id="ai-tone" name="tone" defaultValue="informative">
                {BLOG_TONES.map((tone) => (
                  <option key={tone} value={tone}>
                    {tone[0]?.toUpperCase()}
                    {tone.slice(1)}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-2">
              <Label htmlFor="ai-length">Length</Label>
              <Select id="ai-length" name="length" defaultValue="medium">
                {BLOG_LENGTHS.map((length) => (
                  <option key={length} value={length}>
                    {BLOG_LENGTH_WORDS[length].label}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          {text ? (
            <pre
              aria-live="polite"
              aria-label="Generated text"
              className="max-h-64 overflow-y-auto rounded-md border bg-muted/50 p-3 text-xs whitespace-pre-wrap"
            >
              {text}
            </pre>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => (running ? abort.current?.abort() : setOpen(false))}>
              {running ? 'Stop' : 'Cancel'}
            </Button>
            <Button type="submit" disabled={running}>
              {running ? 'Generating...' : 'Generate'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
