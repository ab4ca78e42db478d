import { BLOG_CATEGORIES, BLOG_STATUSES, COVER_UPLOAD_PATH } from './blog.ts'
import { z } from './zod.ts'

/** Comma-separated or a list; trimmed, blanks and repeats dropped (the spec's keyword rule). */
const tagListSchema = z
  .union([z.array(z.string()), z.string()])
  .transform((value) => [
    ...new Set((Array.isArray(value) ? value : value.split(',')).map((tag) => tag.trim().toLowerCase()).filter(Boolean)),
  ])
  .pipe(z.array(z.string().max(40, 'Each tag must be at most 40 characters.')).max(10, 'At most 10 tags.'))

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((value) => value || null)

/** A post as the admin writes it (New Post / Edit dialogs, POST and PUT /api/blog). */
const blogPostFieldsSchema = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(200, 'Title must be at most 200 characters.'),
  content: z.string().max(100_000, 'Content must be at most 100,000 characters.'),
  excerpt: optionalText(500, 'Excerpt must be at most 500 characters.'),
  status: z.enum(BLOG_STATUSES, { error: 'Status must be draft or published.' }),
  category: z
    // The message sits on the union: a union that matches no member reports only its own error.
    .union([z.enum(BLOG_CATEGORIES), z.literal('')], { error: `Category must be one of: ${BLOG_CATEGORIES.join(', ')}.` })
    .nullish()
    .transform((value) => value || null),
  tags: tagListSchema,
  featured: z.boolean(),
  coverImageUrl: z
    .string()
    .trim()
    .max(300)
    .refine(
      (value) => value === '' || (value.startsWith(COVER_UPLOAD_PATH) && !value.includes('..')),
      'The cover must be an uploaded image.',
    )
    .nullish()
    .transform((value) => value || null),
})

export const blogPostCreateSchema = blogPostFieldsSchema.extend({
  content: blogPostFieldsSchema.shape.content.default(''),
  status: blogPostFieldsSchema.shape.status.default('draft'),
  tags: blogPostFieldsSchema.shape.tags.default([]),
  featured: blogPostFieldsSchema.shape.featured.default(false),
})
export type BlogPostCreate = z.infer<typeof blogPostCreateSchema>

export const blogPostUpdateSchema = blogPostFieldsSchema.partial()
export type BlogPostUpdate = z.infer<typeof blogPostUpdateSchema>
