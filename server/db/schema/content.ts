import { sql } from 'drizzle-orm'
import { boolean, check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

export const blogPosts = pgTable(
  'blog_posts',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    slug: text().notNull().unique(),
    content: text().notNull().default(''),
    excerpt: text(),
    status: text({ enum: ['draft', 'published'] })
      .notNull()
      .default('draft'),
    category: text(),
    tags: jsonb().$type<string[]>().notNull().default([]),
    featured: boolean().notNull().default(false),
    coverImageUrl: text(),
    authorId: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('blog_posts_status_check', sql`${table.status} in ('draft', 'published')`),
    index().on(table.status, table.publishedAt),
    index().on(table.createdAt),
  ],
)

export const serviceInquiries = pgTable(
  'service_inquiries',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    projectType: text({ enum: ['data-scraping', 'process-automation', 'custom-tools', 'other'] }).notNull(),
    /** Set by the contact page's form, whose inquiries have project type 'other'. */
    subject: text(),
    message: text().notNull(),
    processed: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      'service_inquiries_project_type_check',
      sql`${table.projectType} in ('data-scraping', 'process-automation', 'custom-tools', 'other')`,
    ),
    index().on(table.createdAt),
  ],
)
