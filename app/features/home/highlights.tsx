import { Bot, LayoutDashboard, MonitorSmartphone } from 'lucide-react'

const CARDS = [
  {
    icon: MonitorSmartphone,
    title: 'Chrome Extensions & Desktop Apps',
    text: 'Automate work in your browser with the Chrome extension, and on your computer with the desktop app.',
  },
  {
    icon: Bot,
    title: 'Smart Workflows',
    text: 'Data entry, form submission and site navigation, handled by AI that adapts when pages change.',
  },
  { icon: LayoutDashboard, title: 'Full SaaS Control', text: 'One dashboard to manage every task, schedule and run, from any device.' },
]

export function Highlights() {
  return (
    <section aria-label="Highlights" className="mx-auto grid max-w-6xl gap-4 px-4 pb-24 sm:px-6 md:grid-cols-3">
      {CARDS.map(({ icon: Icon, title, text }) => (
        <div key={title} className="rounded-lg border bg-card p-6 text-card-foreground">
          <Icon className="size-6 text-primary" aria-hidden="true" />
          <h2 className="mt-4 text-lg leading-tight font-semibold">{title}</h2>
          <p className="mt-2 text-sm text-muted-foreground">{text}</p>
        </div>
      ))}
    </section>
  )
}
