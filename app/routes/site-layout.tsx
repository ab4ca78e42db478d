import { Outlet, useRouteLoaderData } from 'react-router'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'
import { MAIN_CONTENT_ID } from '#app/components/layout/skip-link.tsx'
import type { loader as rootLoader } from '#app/root.tsx'

export default function SiteLayout() {
  const root = useRouteLoaderData<typeof rootLoader>('root')
  return (
    <>
      <SiteHeader signedIn={Boolean(root?.user)} theme={root?.theme ?? 'dark'} />
      <div id={MAIN_CONTENT_ID} tabIndex={-1} className="pt-16 outline-none">
        <Outlet />
      </div>
      <SiteFooter contactEmail={root?.site.contactEmail ?? ''} />
    </>
  )
}
