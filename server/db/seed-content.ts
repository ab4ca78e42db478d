// Reference data and demo content written by seed.ts.

export const DEFAULT_PLANS = [
  {
    name: 'Free',
    slug: 'free',
    price: 0,
    creditsPerMonth: 5,
    description: 'Try Aether on your own repetitive tasks.',
    features: ['5 automations per month', 'Basic browser automation', 'Up to 100 actions per automation', 'Community support'],
    monthlyRunLimit: 5,
    actionLimit: 100,
    monthlyModelCalls: 0,
    seats: 3,
    // The credential vault (docs/decisions/025): a few saved logins on Free, plenty on Pro, no limit on Business.
    vaultSecrets: 5,
    cloudConcurrency: 1,
    // Connected devices (docs/decisions/031): one on Free, "Cloud sync across 3 devices" on Pro, "Unlimited devices" on Business.
    devices: 1,
    // The shortest schedule interval in minutes (docs/decisions/036): 15 on Free, 5 on Pro, none on Business.
    scheduleMinMinutes: 15,
    // Data rows per run and JavaScript steps (docs/decisions/046): "basic browser automation" on Free, "advanced" on Pro and Business.
    dataRowLimit: 20,
    // How long a run's screenshots and files are kept (docs/decisions/057): a week on Free, a month on Pro, a year on Business.
    runFilesDays: 7,
    personWaitMinutes: 10,
    scripts: false,
    highlighted: false,
    sortOrder: 0,
  },
  {
    name: 'Pro',
    slug: 'pro',
    price: 29,
    creditsPerMonth: 1000,
    description: 'For professionals who automate every day.',
    features: [
      'Unlimited automations',
      'Advanced browser and desktop automation',
      'Unlimited actions',
      'AI optimisation suggestions',
      'E-mail and chat support',
      'Cloud sync across 3 devices',
    ],
    // Planning and self-repair with the AI model, suggestions (docs/decisions/020).
    aiPlanning: true,
    modelRepair: true,
    suggestions: true,
    monthlyModelCalls: 300,
    seats: 3,
    vaultSecrets: 50,
    cloudConcurrency: 2,
    devices: 3,
    scheduleMinMinutes: 5,
    dataRowLimit: 1000,
    runFilesDays: 30,
    personWaitMinutes: 30,
    scripts: true,
    highlighted: true,
    sortOrder: 1,
    // The spec's plan identifiers; with real Paddle, set the plan's price id (pri_…) instead.
    paddlePriceId: 'pro-monthly-plan',
  },
  {
    name: 'Business',
    slug: 'business',
    price: 79,
    creditsPerMonth: 5000,
    description: 'For teams that run their work on automation.',
    features: [
      'Everything in Pro',
      'Team collaboration',
      'Advanced workflow templates',
      'API access',
      'Priority support',
      'Custom integrations',
      'Unlimited devices',
    ],
    aiPlanning: true,
    modelRepair: true,
    suggestions: true,
    monthlyModelCalls: 2000,
    // "Team collaboration": team workspaces of up to 25 people (docs/decisions/021).
    teams: true,
    seats: 25,
    // "Advanced workflow templates" (docs/decisions/022).
    advancedTemplates: true,
    // "Custom integrations": automations started from outside by a trigger URL (docs/decisions/027).
    triggerUrls: true,
    // "Custom integrations": outgoing webhooks, up to 10 endpoints (docs/decisions/026).
    webhooks: 10,
    vaultSecrets: null,
    // Five cloud runs of a workspace at once; more wait in the queue (docs/decisions/029).
    cloudConcurrency: 5,
    devices: null,
    scheduleMinMinutes: null,
    dataRowLimit: 10000,
    runFilesDays: 365,
    personWaitMinutes: 120,
    scripts: true,
    highlighted: false,
    sortOrder: 2,
    paddlePriceId: 'business-monthly-plan',
  },
]

const DAY_MS = 24 * 60 * 60 * 1000

export function demoPosts(now: Date) {
  return [
    {
      title: 'Automate Your Browser in 10 Minutes',
      slug: 'automate-your-browser-in-10-minutes',
      category: 'Tutorial',
      tags: ['browser', 'getting-started'],
      featured: true,
      status: 'published' as const,
      publishedAt: new Date(now.getTime() - 2 * DAY_MS),
      excerpt: 'Record a routine once, let Aether repeat it for you: a step-by-step first automation.',
      content: `## Why start with the browser?

Most repetitive work happens in a browser tab: copying rows into a CRM, checking a dashboard, filling the same form.

## Your first automation

1. Install the Aether extension.
2. Click **Record** and do the task once.
3. Review the recorded steps and press **Save**.

> Tip: give each automation a name that says what it achieves, not how.

\`\`\`json
{ "action": "navigate", "url": "https://example.com/login" }
\`\`\`

That's it — run it whenever you like, or put it on a schedule.`,
    },
    {
      title: 'Five Workflows Every Small Team Should Automate',
      slug: 'five-workflows-every-small-team-should-automate',
      category: 'Productivity',
      tags: ['teams', 'workflows'],
      featured: false,
      status: 'published' as const,
      publishedAt: new Date(now.getTime() - 9 * DAY_MS),
      excerpt: 'Invoices, lead capture, reporting, onboarding and monitoring: where automation pays back first.',
      content: `## 1. Lead capture

Copy new leads from forms into your CRM without retyping them.

## 2. Weekly reporting

Collect the same numbers from three dashboards every Monday, automatically.

## 3. Invoice downloads

Log in to each supplier portal and download the month's invoices.

## 4. Onboarding checklists

Create accounts in every tool a new colleague needs.

## 5. Price and stock monitoring

Watch competitor pages and get told when something changes.`,
    },
    {
      title: 'How AI Makes Recorded Automations Robust',
      slug: 'how-ai-makes-recorded-automations-robust',
      category: 'AI',
      tags: ['ai', 'reliability'],
      featured: false,
      status: 'published' as const,
      publishedAt: new Date(now.getTime() - 21 * DAY_MS),
      excerpt: 'Websites change. Here is how Aether keeps your automations working when buttons move.',
      content: `## Selectors break

A recorded click on \`#submit-button-3\` fails the day the site is redesigned.

## What the AI adds

- It describes each target by its **meaning** ("the Submit button of the order form"), not only its selector.
- When a selector stops matching, it finds the element with the same meaning.
- It tells you what it changed, so you stay in control.

| Target described by | Survives a redesign |
| --- | --- |
| Selector only | No |
| Selector and meaning | Yes |

New to Aether? Start with [your first automation](/blog/automate-your-browser-in-10-minutes) or read about [selectors on MDN](https://developer.mozilla.org/en-US/docs/Web/CSS/CSS_selectors).

Links in posts are checked before they are shown: this [Unsafe link](javascript:alert(1)) does nothing.`,
    },
    {
      title: 'Desktop Automation: What Is Coming Next',
      slug: 'desktop-automation-what-is-coming-next',
      category: 'Future of Work',
      tags: ['desktop', 'roadmap'],
      featured: false,
      status: 'draft' as const,
      publishedAt: null,
      excerpt: 'A look at the desktop app roadmap.',
      content: `## Draft

Notes for the upcoming desktop release.`,
    },
  ]
}

export const DEMO_INQUIRIES = [
  {
    name: 'Maria Keller',
    email: 'maria.keller@example.com',
    projectType: 'data-scraping' as const,
    message: 'We need daily prices from about 40 supplier websites collected into a spreadsheet. Can you help?',
    processed: false,
  },
  {
    name: 'Tom Becker',
    email: 'tom.becker@example.com',
    projectType: 'process-automation' as const,
    message: 'Our team copies orders from e-mail into our ERP by hand. Looking to automate it end to end.',
    processed: true,
  },
  {
    name: 'Aisha Rahman',
    email: 'aisha.rahman@example.com',
    projectType: 'custom-tools' as const,
    message: 'Could you build a small Chrome extension that fills our internal forms from a CSV file?',
    processed: false,
  },
]
