import { RefreshCw, Search } from 'lucide-react'
import { Form, useRevalidator } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { revalidateLatest } from '#app/lib/revalidate.ts'

/** Search box (a GET form, so the search is in the URL) and Refresh, above every admin list. */
export function ListToolbar({
  placeholder,
  search,
  label,
  children,
}: {
  placeholder: string
  search?: string
  label: string
  children?: React.ReactNode
}) {
  const revalidator = useRevalidator()
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <Form method="get" role="search" className="flex w-full max-w-md gap-2">
        <label className="sr-only" htmlFor={`${label}-search`}>
          {placeholder}
        </label>
        <Input id={`${label}-search`} type="search" name="search" placeholder={placeholder} defaultValue={search ?? ''} maxLength={200} />
        <Button type="submit" variant="outline" size="icon" aria-label="Search">
          <Search aria-hidden="true" />
        </Button>
      </Form>
      <div className="flex flex-wrap gap-2">
        {children}
        <Button
          type="button"
          variant="outline"
          onClick={() => revalidateLatest(revalidator.revalidate)}
          disabled={revalidator.state === 'loading'}
        >
          <RefreshCw
            aria-hidden="true"
            className={revalidator.state === 'loading' ? 'animate-spin motion-reduce:animate-none' : undefined}
          />
          Refresh
        </Button>
      </div>
    </div>
  )
}
