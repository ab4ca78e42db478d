import { format } from 'date-fns'
import { useEffect, useState } from 'react'
import { useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-blog'
import { Pagination } from '#app/components/pagination.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { actionResult } from '#app/lib/action-result.server.ts'
import { GenerateDialog } from '#app/features/admin/blog/generate-dialog.tsx'
import { PostDialog, type PostDraft } from '#app/features/admin/blog/post-dialog.tsx'
import { PostsTable } from '#app/features/admin/blog/posts-table.tsx'
import { ListToolbar } from '#app/features/admin/list-toolbar.tsx'
import { readListQuery } from '#app/features/admin/list-query.server.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'
import { blogPostCreateSchema, blogPostUpdateSchema } from '#common/blog-posts.ts'
import { ValidationError } from '#common/errors.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdminMember(context)
  const query = readListQuery(request)
  const loaded = await readForPage(
    context,
    () => context.services.blog.listAll({ page: query.page, limit: DEFAULT_PAGE_SIZE, search: query.search }),
    'The blog posts could not be loaded. Please try again.',
  )
  const result = loaded.ok ? loaded.value : { items: [], total: 0 }
  const label = (date: Date | null) => (date ? format(date, 'MMM d, yyyy') : '—')
  return {
    error: query.error ?? (loaded.ok ? null : loaded.message),
    search: query.search,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    posts: result.items.map((post) => ({
      id: post.id,
      title: post.title,
      slug: post.slug,
      status: post.status,
      created: label(post.createdAt),
      published: label(post.publishedAt),
      draft: {
        id: post.id,
        title: post.title,
        content: post.content,
        excerpt: post.excerpt ?? '',
        status: post.status,
        category: post.category ?? '',
        tags: post.tags.join(', '),
        featured: post.featured,
        coverImageUrl: post.coverImageUrl ?? '',
      } satisfies PostDraft,
    })),
  }
}

/** The dialog's fields as the shared schemas read them (checkbox 'on', empty strings as unset). */
function postInput(form: Record<string, FormDataEntryValue>) {
  return { ...form, featured: form.featured === 'on' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = Object.fromEntries(await request.formData())
  const intent = String(form.intent)
  const id = String(form.postId ?? '').slice(0, 100)
  const { blog } = context.services
  const { intent: _intent, postId: _postId, ...fields } = form
  if (intent === 'create-post') {
    return actionResult(() => blog.create(actor, parseInput(blogPostCreateSchema, postInput(fields))), {
      intent: intent,
      success: { title: 'Post created' },
      error: 'Error saving post',
    })
  }
  if (intent === 'update-post') {
    return actionResult(() => blog.update(actor, id, parseInput(blogPostUpdateSchema, postInput(fields))), {
      intent: intent,
      success: { title: 'Post updated' },
      error: 'Error saving post',
    })
  }
  if (intent === 'delete-post') {
    return actionResult(() => blog.remove(actor, id), { intent: intent, success: { title: 'Post deleted' }, error: 'Error deleting post' })
  }
  return actionResult(() => Promise.reject(new ValidationError('Unknown action')), {
    intent: intent,
    success: { title: '' },
    error: 'Error saving post',
  })
}

const NEW_POST: PostDraft = {
  title: '',
  content: '',
  excerpt: '',
  status: 'draft',
  category: '',
  tags: '',
  featured: false,
  coverImageUrl: '',
}

export default function AdminBlogTab() {
  const { posts, page, pageCount, search, error } = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>())
  const [editing, setEditing] = useState<PostDraft | null>(null)
  useEffect(() => {
    if (error) toast.error('Error fetching blog posts', { description: error })
  }, [error])
  return (
    <section aria-label="Blog Management" className="space-y-4">
      <ListToolbar placeholder="Search posts..." search={search} label="posts">
        <GenerateDialog onDraft={(draft) => setEditing({ ...NEW_POST, ...draft })} />
        <Button type="button" onClick={() => setEditing(NEW_POST)}>
          New Post
        </Button>
      </ListToolbar>
      <PostsTable posts={posts} search={search} onEdit={setEditing} />
      <Pagination
        page={page}
        pageCount={pageCount}
        href={(n) => `/admin/blog?${new URLSearchParams({ ...(search ? { search } : {}), page: String(n) })}`}
        label="Blog post pages"
      />
      {editing ? <PostDialog key={editing.id ?? 'new'} draft={editing} onClose={() => setEditing(null)} /> : null}
    </section>
  )
}
