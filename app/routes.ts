import { index, layout, route, type RouteConfig } from '@react-router/dev/routes'

export default [
  layout('routes/site-layout.tsx', [
    index('routes/home.tsx'),
    route('auth', 'routes/auth.tsx'),
    route('about', 'routes/about.tsx'),
    route('careers', 'routes/careers.tsx'),
    route('contact', 'routes/contact.tsx'),
    route('legal', 'routes/legal.tsx'),
    route('terms', 'routes/terms.tsx'),
    route('privacy', 'routes/privacy.tsx'),
    route('cookies', 'routes/cookies.tsx'),
    route('acceptable-use', 'routes/acceptable-use.tsx'),
    route('blog', 'routes/blog.tsx'),
    route('blog/:slug', 'routes/blog-post.tsx'),
    route('services', 'routes/services.tsx'),
  ]),
  layout('routes/member-layout.tsx', [
    route('dashboard', 'routes/dashboard.tsx'),
    route('settings', 'routes/settings.tsx'),
    route('billing', 'routes/billing.tsx'),
  ]),
  route('admin', 'routes/admin.tsx'),
  route('sign-out', 'routes/sign-out.tsx'),
  route('select-free-plan', 'routes/select-free-plan.tsx'),
  route('preferences', 'routes/preferences.tsx'),
  route('blog/rss.xml', 'routes/blog-rss.ts'),
  route('blog/covers/:file', 'routes/blog-cover.ts'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('og.png', 'routes/og-image.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
