import type { ScriptedStep } from '../../server/testing/scripted-model.ts'

// Task descriptions over the practice sites (server/testing/practice-sites.ts), as members write
// them: varied verbs, quotes or none, commas, 'then' and 'and'. Each has the page it starts on and
// the steps a model would choose for it (the scripted model of `npm run bench:planner` answers
// with these, by element words, so the model pipeline is measured, not a model's wit).

export interface CorpusTask {
  description: string
  /** Path on the practice sites. */
  start: string
  model: ScriptedStep[]
}

const EMAIL = 'walker@example.com'
const PASSWORD = 'trail-mix-42'
const signInSteps: ScriptedStep[] = [
  { type: 'type', element: 'Email', role: 'textbox', text: EMAIL },
  { type: 'type', element: 'Password', text: '{{secret 1}}' },
  { type: 'click', element: 'Sign in', role: 'button' },
]

export const PLANNER_CORPUS: CorpusTask[] = [
  // The contact form.
  {
    description:
      "Type 'Ada Lovelace' into Full name, ada@example.com into Email, choose Returns in Topic, write 'Where is my parcel?' in Message and click Send message",
    start: '/contact',
    model: [
      { type: 'type', element: 'Full name', role: 'textbox', text: 'Ada Lovelace' },
      { type: 'type', element: 'Email', role: 'textbox', text: 'ada@example.com' },
      { type: 'select', element: 'Topic', text: 'Returns' },
      { type: 'type', element: 'Message', role: 'textbox', text: 'Where is my parcel?' },
      { type: 'click', element: 'Send message', role: 'button' },
    ],
  },
  {
    description: 'Fill in the full name with Grace Hopper and the email with grace@example.com, then press the Send message button',
    start: '/contact',
    model: [
      { type: 'type', element: 'Full name', role: 'textbox', text: 'Grace Hopper' },
      { type: 'type', element: 'Email', role: 'textbox', text: 'grace@example.com' },
      { type: 'click', element: 'Send message', role: 'button' },
    ],
  },
  {
    description:
      "Enter 'Alan' in the Full name field. Select Other from the topic dropdown. Click Send message. Check that 'Thank you, Alan' appears.",
    start: '/contact',
    model: [
      { type: 'type', element: 'Full name', role: 'textbox', text: 'Alan' },
      { type: 'select', element: 'Topic', text: 'Other' },
      { type: 'click', element: 'Send message', role: 'button' },
      { type: 'assertText', text: 'Thank you, Alan' },
    ],
  },
  {
    description: 'fill Message with Hello there and submit the form',
    start: '/contact',
    model: [
      { type: 'type', element: 'Message', role: 'textbox', text: 'Hello there' },
      { type: 'click', element: 'Send message', role: 'button' },
    ],
  },
  {
    description: 'Choose Order question for Topic, type bob@example.com into the Email box, then send the message',
    start: '/contact',
    model: [
      { type: 'select', element: 'Topic', text: 'Order question' },
      { type: 'type', element: 'Email', role: 'textbox', text: 'bob@example.com' },
      { type: 'click', element: 'Send message', role: 'button' },
    ],
  },
  {
    description: 'Go to the contact page, type Ada into Full name and take a screenshot',
    start: '/',
    model: [
      { type: 'click', element: 'Contact us', role: 'link' },
      { type: 'type', element: 'Full name', role: 'textbox', text: 'Ada' },
      { type: 'screenshot' },
    ],
  },
  {
    description: 'open the Contact us link, then fill Full name with Ada and Email with ada@example.com',
    start: '/',
    model: [
      { type: 'click', element: 'Contact us', role: 'link' },
      { type: 'type', element: 'Full name', role: 'textbox', text: 'Ada' },
      { type: 'type', element: 'Email', role: 'textbox', text: 'ada@example.com' },
    ],
  },
  {
    description: 'Click Contact us, choose Returns in Topic and type "Broken zip" into Message',
    start: '/',
    model: [
      { type: 'click', element: 'Contact us', role: 'link' },
      { type: 'select', element: 'Topic', text: 'Returns' },
      { type: 'type', element: 'Message', role: 'textbox', text: 'Broken zip' },
    ],
  },

  // The product table with pages.
  {
    description: 'Extract the Name column as product and the Price column as price',
    start: '/products',
    model: [
      { type: 'extract', element: 'Trail Runner Shoes', field: 'product', all: true },
      { type: 'extract', element: '89.00', field: 'price', all: true },
    ],
  },
  {
    description: 'Collect all product names and prices, then go to the next page',
    start: '/products',
    model: [
      { type: 'extract', element: 'Trail Runner Shoes', field: 'product names', all: true },
      { type: 'extract', element: '89.00', field: 'prices', all: true },
      { type: 'click', element: 'Next page', role: 'link' },
    ],
  },
  {
    description: 'Read the Stock column into stock',
    start: '/products',
    model: [{ type: 'extract', element: 'Stock', role: 'columnheader', field: 'stock', all: true }],
  },
  {
    description: 'Click Next page and extract the Name column as product',
    start: '/products',
    model: [
      { type: 'click', element: 'Next page', role: 'link' },
      { type: 'extract', element: 'Name', role: 'columnheader', field: 'product', all: true },
    ],
  },
  {
    description: 'Get the prices from the table',
    start: '/products',
    model: [{ type: 'extract', element: 'Price', role: 'columnheader', field: 'prices', all: true }],
  },
  {
    description: 'Extract the first heading as title',
    start: '/products',
    model: [{ type: 'extract', element: 'Products', role: 'heading', field: 'title' }],
  },
  {
    description: 'Take a screenshot of the page, then click Next page and take another screenshot',
    start: '/products',
    model: [{ type: 'screenshot' }, { type: 'click', element: 'Next page', role: 'link' }, { type: 'screenshot' }],
  },
  {
    description: 'Wait 1 second, then extract the Name column',
    start: '/products',
    model: [{ type: 'wait' }, { type: 'extract', element: 'Name', role: 'columnheader', field: 'Name', all: true }],
  },
  {
    description: 'Open the Products link and extract the Price column',
    start: '/',
    model: [
      { type: 'click', element: 'Products', role: 'link' },
      { type: 'extract', element: 'Price', role: 'columnheader', field: 'Price', all: true },
    ],
  },
  {
    description: 'go to products, click on Next page, then make sure the page says Page 2 of 3',
    start: '/',
    model: [
      { type: 'click', element: 'Products', role: 'link' },
      { type: 'click', element: 'Next page', role: 'link' },
      { type: 'assertText', text: 'Page 2 of 3' },
    ],
  },

  // The sign-in page.
  {
    description: `Log in as ${EMAIL} with password ${PASSWORD} and check that Welcome back appears`,
    start: '/signin',
    model: [...signInSteps, { type: 'assertText', text: 'Welcome back' }],
  },
  {
    description: `Sign in with email ${EMAIL} and password ${PASSWORD}, then extract the orders as orders`,
    start: '/signin',
    model: [...signInSteps, { type: 'extract', element: 'Order 1001', field: 'orders', all: true }],
  },
  {
    description: `Type ${EMAIL} into Email and ${PASSWORD} into Password, click Sign in, then take a screenshot`,
    start: '/signin',
    model: [...signInSteps, { type: 'screenshot' }],
  },
  {
    description: `Enter the email ${EMAIL}, enter the password ${PASSWORD}, press Sign in`,
    start: '/signin',
    model: signInSteps,
  },
  {
    description: `Sign in using ${EMAIL} / ${PASSWORD} and verify the page says Your account`,
    start: '/signin',
    model: [...signInSteps, { type: 'assertText', text: 'Your account' }],
  },
  {
    description: `Log in with ${EMAIL} and ${PASSWORD}`,
    start: '/signin',
    model: signInSteps,
  },
  {
    description: `Follow the Sign in link, log in as ${EMAIL} with password ${PASSWORD}`,
    start: '/',
    model: [{ type: 'click', element: 'Sign in', role: 'link' }, ...signInSteps],
  },

  // The search.
  {
    description: 'Search for jacket and extract the prices',
    start: '/search',
    model: [
      { type: 'type', element: 'Search products', text: 'jacket' },
      { type: 'click', element: 'Search', role: 'button' },
      { type: 'extract', element: '$129.50', field: 'prices', all: true },
    ],
  },
  {
    description: 'Type socks into the search box, press Enter and collect the product titles as product',
    start: '/search',
    model: [
      { type: 'type', element: 'Search products', text: 'socks' },
      { type: 'press', element: 'Search products' },
      { type: 'extract', element: 'Wool Socks', field: 'product', all: true },
    ],
  },
  {
    description: "Look up 'Water' and check that Water Bottle appears",
    start: '/search',
    model: [
      { type: 'type', element: 'Search products', text: 'Water' },
      { type: 'click', element: 'Search', role: 'button' },
      { type: 'assertText', text: 'Water Bottle' },
    ],
  },
  {
    description: 'search for bag, then take a screenshot called results',
    start: '/search',
    model: [
      { type: 'type', element: 'Search products', text: 'bag' },
      { type: 'click', element: 'Search', role: 'button' },
      { type: 'screenshot' },
    ],
  },
  {
    description: 'Find hat and get all prices as price',
    start: '/search',
    model: [
      { type: 'type', element: 'Search products', text: 'hat' },
      { type: 'click', element: 'Search', role: 'button' },
      { type: 'extract', element: '$22.00', field: 'price', all: true },
    ],
  },
  {
    description: "Enter 'stove' in the search field and click Search, then extract the results as result",
    start: '/search',
    model: [
      { type: 'type', element: 'Search products', text: 'stove' },
      { type: 'click', element: 'Search', role: 'button' },
      { type: 'extract', element: 'Camping Stove', field: 'result', all: true },
    ],
  },
  {
    description: "Click Search, search for 'poles', then check that Trekking Poles appears",
    start: '/',
    model: [
      { type: 'click', element: 'Search', role: 'link' },
      { type: 'type', element: 'Search products', text: 'poles' },
      { type: 'click', element: 'Search', role: 'button' },
      { type: 'assertText', text: 'Trekking Poles' },
    ],
  },
]
