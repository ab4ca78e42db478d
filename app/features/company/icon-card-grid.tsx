import type { LucideIcon } from 'lucide-react'
import { Card, CardDescription, CardHeader } from '#app/components/ui/card.tsx'

export interface IconCardItem {
  icon: LucideIcon
  title: string
  text: string
}

/** Three cards in a row on wide screens, each an icon, a title and a sentence. */
export function IconCardGrid({ items }: { items: readonly IconCardItem[] }) {
  return (
    <ul className="mt-6 grid gap-4 md:grid-cols-3">
      {items.map(({ icon: Icon, title, text }) => (
        <li key={title}>
          <Card className="h-full">
            <CardHeader>
              <Icon className="size-6 text-primary" aria-hidden="true" />
              <h3 className="mt-2 text-lg leading-tight font-semibold tracking-tight">{title}</h3>
              <CardDescription className="leading-6">{text}</CardDescription>
            </CardHeader>
          </Card>
        </li>
      ))}
    </ul>
  )
}
