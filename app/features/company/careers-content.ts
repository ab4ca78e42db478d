import { Globe, GraduationCap, HeartPulse, Rocket, Scale, Target, Users, type LucideIcon } from 'lucide-react'

export interface CultureCard {
  icon: LucideIcon
  title: string
  text: string
}

export interface BenefitGroup {
  icon: LucideIcon
  title: string
  items: string[]
}

export const CULTURE: CultureCard[] = [
  {
    icon: Globe,
    title: 'Remote-First',
    text: 'Work from wherever you do your best work. We write things down, keep meetings rare and respect every time zone.',
  },
  {
    icon: Target,
    title: 'Autonomy & Ownership',
    text: 'Small team, big responsibility: you own problems end to end, from the first sketch to the support ticket.',
  },
  {
    icon: GraduationCap,
    title: 'Continuous Learning',
    text: 'Automation and AI change every month. Time to learn, experiment and share what you found is part of the job.',
  },
]

export const BENEFITS: BenefitGroup[] = [
  {
    icon: HeartPulse,
    title: 'Health & Wellness',
    items: ['Health, dental and vision insurance', 'Monthly wellness stipend', 'Flexible time off'],
  },
  {
    icon: Scale,
    title: 'Work-Life Balance',
    items: ['Remote-first, work from anywhere', 'Flexible hours', 'A 4-day work week every last week of the month', 'Paid parental leave'],
  },
  {
    icon: Rocket,
    title: 'Growth & Development',
    items: [
      'Annual development budget for courses, books and conferences',
      'Mentorship from experienced engineers',
      'Time to explore new ideas',
    ],
  },
  {
    icon: Users,
    title: 'Team & Culture',
    items: ['Yearly team retreats', 'Home office stipend', 'A say in what we build next'],
  },
]

export function teamStatus(founderName: string): string {
  return `Aether is an early-stage startup led by its founder, ${founderName}. We are not actively hiring right now, but we are building the kind of company we would like to work for, and these are the things we plan to offer as the team grows.`
}

export const FOUNDER_VISION =
  'I want Aether to be a small, calm team that ships tools people love: everyone trusted to do great work, with the time and freedom to do it well. When we grow, we will grow that way.'
