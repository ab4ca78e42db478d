import { ExternalLink, Pencil, Trash2 } from 'lucide-react'
import { Link } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { DataTable, EmptyRow } from '#app/components/data-table.tsx'
import type { PostDraft } from './post-dialog.tsx'

export interface PostRow {
  id: string
  title: string
  slug: string
  status: 'draft' | 'published'
  created: string
  published: string
  draft: PostDraft
}

const HEADERS = ['Title', 'Status', 'Created', 'Published', 'Actions']

export function PostsTable({ posts, search, onEdit }: { posts: PostRow[]; search?: string; onEdit: (draft: PostDraft) => void }) {
  return (
    <DataTable caption="Blog posts" headers={HEADERS}>
      {posts.length === 0 ? (
        <EmptyRow colSpan={HEADERS.length}>
          {search ? (
            <>
              <p>No posts found matching your search.</p>
              <Link to="/admin/blog" className="mt-2 inline-block text-primary underline">
                Clear search
              </Link>
            </>
          ) : (
            <p>No blog posts yet. Create your first one!</p>
          )}
        </EmptyRow>
      ) : null}
      {posts.map((post) => (
        <tr key={post.id} className="border-b last:border-0">
          <td data-label="Title" className="px-3 py-2 font-medium">
            {post.title}
          </td>
          <td data-label="Status" className="px-3 py-2">
            <span
              className={
                post.status === 'published'
                  ? 'rounded-full border border-emerald-600/40 bg-emerald-500/10 px-2 py-0.5 text-xs text-emerald-700 dark:text-emerald-300'
                  : 'rounded-full border px-2 py-0.5 text-xs text-muted-foreground'
              }
            >
              {post.status === 'published' ? 'Published' : 'Draft'}
            </span>
          </td>
          <td data-label="Created" className="px-3 py-2 whitespace-nowrap">
            {post.created}
          </td>
          <td data-label="Published" className="px-3 py-2 whitespace-nowrap">
            {post.published}
          </td>
          <td data-label="Actions" className="px-3 py-2">
            <div className="flex items-center gap-1">
              {post.status === 'published' ? (
                <Button asChild variant="ghost" size="icon" title="View">
                  <a href={`/blog/${post.slug}`} target="_blank" rel="noopener noreferrer" aria-label={`View ${post.title}`}>
                    <ExternalLink aria-hidden="true" />
                  </a>
                </Button>
              ) : (
                // A draft has no public page yet; the editor's preview shows it.
                <Button
                  variant="ghost"
                  size="icon"
                  disabled
                  title="Drafts are not public yet"
                  aria-label={`View ${post.title} (drafts are not public yet)`}
                >
                  <ExternalLink aria-hidden="true" />
                </Button>
              )}
              <Button variant="ghost" size="icon" aria-label={`Edit ${post.title}`} title="Edit" onClick={() => onEdit(post.draft)}>
                <Pencil aria-hidden="true" />
              </Button>
              <ConfirmAction
                label={<Trash2 aria-hidden="true" />}
                triggerProps={{
                  variant: 'ghost',
                  size: 'icon',
                  'aria-label': `Delete ${post.title}`,
                  title: 'Delete',
                  className: 'text-destructive hover:text-destructive',
                }}
                title="Delete post"
                description="Are you sure you want to delete this post?"
                confirmLabel="Delete Post"
                fields={{ intent: 'delete-post', postId: post.id }}
                destructive
              />
            </div>
          </td>
        </tr>
      ))}
    </DataTable>
  )
}
