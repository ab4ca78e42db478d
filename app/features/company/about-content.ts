import { Lightbulb, ShieldCheck, Users, type LucideIcon } from 'lucide-react'

export interface Value {
  icon: LucideIcon
  title: string
  text: string
}

export const ABOUT_INTRO =
  'Aether builds AI-powered automation tools that give people back the hours they lose to repetitive work in the browser and on the desktop.'

/** Our Story: one paragraph each; the founding year comes from the site configuration. */
export function aboutStory(foundedYear: number, founderName: string): string[] {
  return [
    `Aether started in ${foundedYear} as a one-person startup. ${founderName} had spent years writing scrapers, bots and workflow scripts for clients, and kept seeing the same thing: capable people losing whole afternoons to copying data between tabs, filling in the same forms and clicking through the same screens.`,
    'Those custom scripts worked, but only for the people who could afford a developer. Aether is the product version of that work: a browser extension, desktop apps and one dashboard that let anyone record a task once and let AI run it reliably from then on.',
    'We are still small on purpose. Every feature is built, shipped and supported by the person who designed it, which keeps the product focused and the support personal.',
  ]
}

export const ABOUT_MISSION = [
  'Our mission is to make automation as easy as doing the task by hand once. No code, no brittle macros, no week-long setup: show Aether what you do, and it takes it from there.',
  'We measure success in time returned to our users, so they can spend it on work that needs a human: thinking, creating and talking to their customers.',
]

export const VALUES: Value[] = [
  {
    icon: Users,
    title: 'User-Centered Design',
    text: 'We start from the task you are trying to finish, not from the technology. If a feature needs a manual, we keep working on it.',
  },
  {
    icon: Lightbulb,
    title: 'Continuous Innovation',
    text: 'We ship small improvements every week and adopt new AI capabilities as soon as they make automations more reliable, not just more impressive.',
  },
  {
    icon: ShieldCheck,
    title: 'Ethical AI',
    text: 'Your automations run for you and nobody else. We are open about what our AI does, never sell your data and never train models on your private content.',
  },
]
