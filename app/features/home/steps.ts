/** The four steps of How It Works, shared by the section and the demo walkthrough. */
export const STEPS = [
  {
    title: 'Record Your Actions',
    text: 'Press record in the extension or desktop app and do the task once. Aether captures every click, keystroke and page.',
  },
  {
    title: 'AI Enhancement',
    text: 'AI turns the recording into a sturdy workflow: it waits for pages, adapts to layout changes and suggests faster paths.',
  },
  {
    title: 'Save & Schedule',
    text: 'Name the automation, then run it on demand, on a schedule or whenever a trigger fires.',
  },
  {
    title: 'Run & Monitor',
    text: 'Aether runs it in your browser or on your desktop and reports every run, with its result, on your dashboard.',
  },
] as const
