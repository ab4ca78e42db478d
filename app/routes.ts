import { index, layout, route, type RouteConfig } from '@react-router/dev/routes'

export default [
  layout('routes/site-layout.tsx', [index('routes/home.tsx'), route('auth', 'routes/auth.tsx')]),
  layout('routes/member-layout.tsx', [
    route('dashboard', 'routes/dashboard.tsx'),
    route('settings', 'routes/settings.tsx'),
    route('billing', 'routes/billing.tsx'),
  ]),
  route('admin', 'routes/admin.tsx'),
  route('sign-out', 'routes/sign-out.tsx'),
  route('preferences', 'routes/preferences.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
