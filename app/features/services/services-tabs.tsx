import { Tabs, TabsContent, TabsList, TabsTrigger } from '#app/components/ui/tabs.tsx'
import type { ProjectType } from '#common/inquiry-fields.ts'
import { SERVICE_TABS } from './services-content.ts'

/** 'Services I Offer'. Choosing a tab also sets the inquiry form's project type. */
export function ServicesTabs({ onSelect }: { onSelect: (projectType: ProjectType) => void }) {
  return (
    <section aria-labelledby="services-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h2 id="services-heading" className="text-center text-3xl font-bold tracking-tight">
        Services I Offer
      </h2>
      <Tabs
        defaultValue={SERVICE_TABS[0]?.value ?? 'data-scraping'}
        onValueChange={(value) => onSelect(value as ProjectType)}
        className="mt-8 flex flex-col items-center"
      >
        <TabsList className="h-auto flex-wrap">
          {SERVICE_TABS.map((tab) => (
            <TabsTrigger key={tab.value} value={tab.value}>
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {SERVICE_TABS.map((tab) => (
          <TabsContent key={tab.value} value={tab.value} className="w-full">
            <p className="text-center text-muted-foreground">{tab.intro}</p>
            <ul className="mt-6 grid gap-4 md:grid-cols-3">
              {tab.items.map((item) => (
                <li key={item.title} className="rounded-lg border bg-card p-6 text-card-foreground">
                  <h3 className="font-semibold">{item.title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{item.text}</p>
                </li>
              ))}
            </ul>
          </TabsContent>
        ))}
      </Tabs>
    </section>
  )
}
