import { Outlet, useRouteLoaderData } from 'react-router'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'
import type { loader as rootLoader } from '#app/root.tsx'

export default function SiteLayout() {
  const root = useRouteLoaderData<typeof rootLoader>('root')
  return (
    <>
      <SiteHeader signedIn={Boolean(root?.user)} theme={root?.theme ?? 'dark'} />
      <div className="pt-16">
        <Outlet />
      </div>
      <SiteFooter contactEmail={root?.site.contactEmail ?? ''} />
    </>
  )
}
