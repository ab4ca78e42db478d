import { ImagePlus } from 'lucide-react'
import { useState } from 'react'
import { useFetcher } from 'react-router'
import { Markdown } from '#app/components/markdown.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { toast } from '#app/lib/toast.ts'
import { BLOG_CATEGORIES, COVER_MAX_BYTES, COVER_TYPES } from '#common/blog.ts'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'

/** A post in the editor: the form's values (tags as one comma-separated string). */
export interface PostDraft {
  id?: string
  title: string
  content: string
  excerpt: string
  status: 'draft' | 'published'
  category: string
  tags: string
  featured: boolean
  coverImageUrl: string
}

/**
 * New Post / Edit. The Markdown preview is the same component the public post page renders with,
 * so what the admin sees is what readers get (no raw HTML, safe links).
 */
export function PostDialog({ draft, onClose }: { draft: PostDraft; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data, { success: onClose })
  const [content, setContent] = useState(draft.content)
  const [cover, setCover] = useState(draft.coverImageUrl)
  const [uploading, setUploading] = useState(false)
  const editing = Boolean(draft.id)

  async function upload(file: File | undefined) {
    if (!file) return
    if (!(COVER_TYPES as readonly string[]).includes(file.type) || file.size > COVER_MAX_BYTES) {
      toast.error('Error saving post', { description: 'Covers must be PNG, JPEG or WebP images of at most 2 MB.' })
      return
    }
    setUploading(true)
    try {
      const body = new FormData()
      body.set('file', file)
      const response = await fetch('/api/uploads/covers', { method: 'POST', body })
      const answer = (await response.json().catch(() => null)) as {
        data?: { url: string }
        message?: string
        issues?: { message: string }[]
      } | null
      // The field's own message ('Covers must be…'), not the API's 'file: …' summary, as the other admin toasts do.
      if (!response.ok || !answer?.data)
        throw new Error(answer?.issues?.[0]?.message ?? answer?.message ?? 'The cover could not be uploaded.')
      setCover(answer.data.url)
    } catch (error) {
      toast.error('Error saving post', { description: error instanceof Error ? error.message : 'The cover could not be uploaded.' })
    } finally {
      setUploading(false)
    }
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-5xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Post' : 'New Post'}</DialogTitle>
          <DialogDescription>Markdown: headings, lists, quotes, code and tables. The preview shows the public page.</DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value={editing ? 'update-post' : 'create-post'} />
          {draft.id ? <input type="hidden" name="postId" value={draft.id} /> : null}
          <input type="hidden" name="coverImageUrl" value={cover} />
          <div className="space-y-2">
            <Label htmlFor="post-title">Title</Label>
            <Input id="post-title" name="title" defaultValue={draft.title} required maxLength={200} />
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="post-content">Content</Label>
              <Textarea
                id="post-content"
                name="content"
                value={content}
                onChange={(event) => setContent(event.target.value)}
                rows={16}
                maxLength={100_000}
                className="font-mono text-sm"
              />
            </div>
            <div className="space-y-2">
              <p className="text-sm font-medium" id="post-preview-label">
                Preview
              </p>
              <div
                aria-labelledby="post-preview-label"
                className="h-[26rem] overflow-y-auto rounded-md border p-4"
                data-testid="post-preview"
              >
                {content.trim() ? <Markdown>{content}</Markdown> : <p className="text-sm text-muted-foreground">Nothing to preview yet.</p>}
              </div>
            </div>
          </div>
          <div className="space-y-2">
            <Label htmlFor="post-excerpt">Excerpt</Label>
            <Textarea id="post-excerpt" name="excerpt" defaultValue={draft.excerpt} rows={2} maxLength={500} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <div className="space-y-2">
              <Label htmlFor="post-status">Status</Label>
              <Select id="post-status" name="status" defaultValue={draft.status}>
                <option value="draft">Draft</option>
                <option value="published">Published</option>
              </Select>
            </div>
            <div className="space-y-2">
              <Label htmlFor="post-category">Category</Label>
              <Select id="post-category" name="category" defaultValue={draft.category}>
                <option value="">None</option>
                {BLOG_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {category}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-2">
              <Label htmlFor="post-tags">Tags (comma separated)</Label>
              <Input id="post-tags" name="tags" defaultValue={draft.tags} maxLength={500} />
            </div>
            <div className="flex items-center gap-2 pt-7">
              <input id="post-featured" name="featured" type="checkbox" defaultChecked={draft.featured} className="size-4 accent-primary" />
              <Label htmlFor="post-featured">Featured</Label>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            {cover ? <img src={cover} alt="Cover preview" className="h-16 w-28 rounded border object-cover" /> : null}
            <Label
              htmlFor="post-cover"
              className="inline-flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm hover:bg-accent"
            >
              <ImagePlus className="size-4" aria-hidden="true" /> {uploading ? 'Uploading...' : cover ? 'Replace cover' : 'Upload cover'}
            </Label>
            <input
              id="post-cover"
              type="file"
              accept={COVER_TYPES.join(',')}
              className="sr-only"
              onChange={(event) => void upload(event.target.files?.[0])}
            />
            {cover ? (
              <Button type="button" variant="ghost" size="sm" onClick={() => setCover('')}>
                Remove cover
              </Button>
            ) : (
              <span className="text-xs text-muted-foreground">Without one, a cover is drawn from the title.</span>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={fetcher.state !== 'idle' || uploading}>
              {fetcher.state !== 'idle' ? 'Saving...' : editing ? 'Save Post' : 'Create Post'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  )
}
