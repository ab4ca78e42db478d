import type { ProjectType } from '#common/inquiry-fields.ts'

export const WHY_AUTOMATE = [
  { title: 'Save Time', text: 'Hand hours of copying, clicking and checking to software that never gets tired.' },
  { title: 'Reduce Costs', text: 'One automation costs less than the same task done by hand every week.' },
  { title: 'Scale Your Business', text: 'Handle ten times the orders, leads or records without ten times the staff.' },
  { title: 'Reduce Errors', text: 'Automations do it the same way every time: no typos, no skipped rows.' },
] as const

/** The tabs under 'Services I Offer'; each tab's value is the project type it selects in the form. */
export const SERVICE_TABS: {
  value: Exclude<ProjectType, 'other'>
  label: string
  intro: string
  items: { title: string; text: string }[]
}[] = [
  {
    value: 'data-scraping',
    label: 'Data Scraping',
    intro: 'Reliable data from any website, delivered in the format you need.',
    items: [
      { title: 'Web Scraping', text: 'Products, prices, listings or leads collected from any site, including ones that need a login.' },
      { title: 'Data Monitoring', text: 'Scheduled checks that alert you when a price, stock level or page changes.' },
      { title: 'API Integration', text: 'Scraped data sent straight into your database, spreadsheet or CRM through its API.' },
    ],
  },
  {
    value: 'process-automation',
    label: 'Process Automation',
    intro: 'Repetitive business processes, running on their own.',
    items: [
      { title: 'Workflow Automation', text: 'Multi-step tasks across websites and apps, triggered on a schedule or by an event.' },
      { title: 'System Integration', text: 'Tools that do not talk to each other, connected so data flows without copy and paste.' },
      { title: 'Data Processing', text: 'Files and records cleaned, converted, merged and validated automatically.' },
    ],
  },
  {
    value: 'custom-tools',
    label: 'Custom Tools',
    intro: 'Software built around the way you work.',
    items: [
      { title: 'Custom Scripts', text: 'Focused scripts for one job, documented and easy to run again.' },
      { title: 'Browser Extensions', text: 'Chrome extensions that add the buttons and shortcuts your team is missing.' },
      { title: 'Chat & Process Bots', text: 'Bots that answer questions, collect information and move work along.' },
    ],
  },
]
