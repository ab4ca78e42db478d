// The template gallery's first templates (docs/decisions/022), written by seed.ts into a gallery
// that has none. One or two for each kind of task the site sells; the addresses and the words
// on the page are inputs, and elements are named as people see them (role and name, label,
// placeholder), with CSS only as a last fallback. Checked by seed-templates.test.ts.
// Over 300 lines because it is data: eleven templates one after another, read as a list.
import type { TemplateCategory, TemplateInput } from '#common/templates.ts'

export interface SeedTemplate {
  slug: string
  name: string
  category: TemplateCategory
  description: string
  steps: Record<string, unknown>[]
  inputs: TemplateInput[]
  advanced: boolean
  published: boolean
}

const input = (
  name: string,
  label: string,
  example: string,
  options: { defaultValue?: string; required?: boolean } = {},
): TemplateInput => ({
  name,
  label,
  example,
  defaultValue: options.defaultValue ?? '',
  required: options.required ?? true,
})

const startUrl = (label = 'Start page', example = 'https://shop.example.com/') => input('start_url', label, example)
const go = { type: 'navigate', url: '{{start_url}}' }
const field = (label: string, extra: Record<string, unknown>[] = []) => [{ by: 'label', text: label }, ...extra]
const button = (name: string) => [
  { by: 'role', role: 'button', name },
  { by: 'text', text: name },
]
const searchBox = [
  { by: 'role', role: 'searchbox' },
  { by: 'placeholder', text: 'Search' },
  { by: 'label', text: 'Search' },
  { by: 'css', selector: 'input[type="search"]' },
]

export const SEED_TEMPLATES: SeedTemplate[] = [
  {
    slug: 'add-a-contact-to-a-crm',
    name: 'Add a contact to a CRM',
    category: 'data-entry',
    description: 'Opens the new-contact form of your CRM, types the name, e-mail address and company, saves, and checks it was saved.',
    inputs: [
      startUrl('New-contact form address', 'https://crm.example.com/contacts/new'),
      input('full_name', 'Full name', 'Ada Lovelace'),
      input('email', 'E-mail address', 'ada@example.com'),
      input('company', 'Company', 'Analytical Engines Ltd', { required: false }),
      input('saved_text', 'What the page says once saved', 'Contact saved', { defaultValue: 'Saved' }),
    ],
    steps: [
      go,
      { type: 'type', target: field('Full name', [{ by: 'placeholder', text: 'Full name' }]), text: '{{full_name}}' },
      { type: 'type', target: field('Email', [{ by: 'placeholder', text: 'Email' }]), text: '{{email}}' },
      { type: 'type', target: field('Company'), text: '{{company}}' },
      { type: 'click', target: button('Save') },
      { type: 'assertText', text: '{{saved_text}}' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'enter-an-order',
    name: 'Enter an order into a web form',
    category: 'data-entry',
    description:
      'Types a customer, a product and a quantity into an order form, chooses the shipping, adds the order and checks the confirmation.',
    inputs: [
      startUrl('Order form address', 'https://orders.example.com/new'),
      input('customer', 'Customer', 'Grace Hopper'),
      input('product', 'Product', 'Trail Runner Shoes'),
      input('quantity', 'Quantity', '2', { defaultValue: '1' }),
      input('shipping', 'Shipping (as the drop-down shows it)', 'Express', { defaultValue: 'Standard' }),
      input('confirmation_text', 'What the page says once added', 'Order added', { defaultValue: 'Order added' }),
    ],
    steps: [
      go,
      { type: 'type', target: field('Customer'), text: '{{customer}}' },
      { type: 'type', target: field('Product', [{ by: 'placeholder', text: 'Product' }]), text: '{{product}}' },
      { type: 'type', target: field('Quantity', [{ by: 'role', role: 'spinbutton', name: 'Quantity' }]), text: '{{quantity}}' },
      { type: 'select', target: field('Shipping', [{ by: 'role', role: 'combobox', name: 'Shipping' }]), value: '{{shipping}}' },
      { type: 'click', target: button('Add order') },
      { type: 'assertText', text: '{{confirmation_text}}' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'send-a-contact-form',
    name: 'Send a contact form',
    category: 'form-submission',
    description:
      'Fills a website’s contact form with your name, e-mail address, topic and message, sends it and checks the thank-you message.',
    inputs: [
      startUrl('Contact page address', 'https://www.example.com/contact'),
      input('full_name', 'Your name', 'Ada Lovelace'),
      input('email', 'Your e-mail address', 'ada@example.com'),
      input('topic', 'Topic (as the drop-down shows it)', 'Order question'),
      input('message', 'Message', 'Could you tell me when my order ships?'),
      input('thank_you_text', 'What the page says once sent', 'Thank you', { defaultValue: 'Thank you' }),
    ],
    steps: [
      go,
      { type: 'type', target: field('Full name', [{ by: 'placeholder', text: 'Your name' }]), text: '{{full_name}}' },
      { type: 'type', target: field('Email', [{ by: 'placeholder', text: 'you@example.com' }]), text: '{{email}}' },
      { type: 'select', target: field('Topic'), value: '{{topic}}' },
      { type: 'type', target: field('Message'), text: '{{message}}' },
      { type: 'click', target: button('Send message') },
      { type: 'assertText', text: '{{thank_you_text}}' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'subscribe-to-a-newsletter',
    name: 'Subscribe to a newsletter',
    category: 'form-submission',
    description: 'Types your e-mail address into a newsletter sign-up, subscribes, and checks the confirmation.',
    inputs: [
      startUrl('Page with the sign-up', 'https://blog.example.com/'),
      input('email', 'E-mail address to subscribe', 'ada@example.com'),
      input('confirmation_text', 'What the page says once subscribed', 'Thanks for subscribing', { defaultValue: 'Thanks' }),
    ],
    steps: [
      go,
      {
        type: 'type',
        target: field('Email', [
          { by: 'placeholder', text: 'you@example.com' },
          { by: 'role', role: 'textbox', name: 'Email' },
        ]),
        text: '{{email}}',
      },
      { type: 'click', target: button('Subscribe') },
      { type: 'assertText', text: '{{confirmation_text}}' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'search-a-site',
    name: 'Search a site and capture the results',
    category: 'site-navigation',
    description: 'Opens a site, searches it for your words and takes a screenshot of the results.',
    inputs: [startUrl('Site address', 'https://shop.example.com/'), input('search_term', 'Search for', 'rain jacket')],
    steps: [
      go,
      { type: 'type', target: searchBox, text: '{{search_term}}' },
      { type: 'press', key: 'Enter', target: searchBox },
      { type: 'wait', ms: 2000 },
      { type: 'screenshot', name: 'Search results' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'open-a-page-through-the-menu',
    name: 'Open a page through the site menu',
    category: 'site-navigation',
    description: 'Follows two links of a site’s menu, as a visitor would, checks the page and takes a screenshot of it.',
    inputs: [
      startUrl('Site address', 'https://www.example.com/'),
      input('first_link', 'First link to follow', 'Products'),
      input('second_link', 'Then the link', 'Pricing'),
      input('expected_text', 'Text the page shows', 'Plans and pricing'),
    ],
    steps: [
      go,
      {
        type: 'click',
        target: [
          { by: 'role', role: 'link', name: '{{first_link}}' },
          { by: 'text', text: '{{first_link}}' },
        ],
      },
      {
        type: 'click',
        target: [
          { by: 'role', role: 'link', name: '{{second_link}}' },
          { by: 'text', text: '{{second_link}}' },
        ],
      },
      { type: 'assertText', text: '{{expected_text}}' },
      { type: 'screenshot', name: 'Page' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'copy-a-table',
    name: 'Copy a table into rows',
    category: 'scraping',
    description: 'Reads two columns of a table on a page, by their headers, into rows you can download as CSV.',
    inputs: [
      startUrl('Page with the table', 'https://shop.example.com/products'),
      input('name_column', 'Header of the names column', 'Product'),
      input('value_column', 'Header of the values column', 'Price'),
    ],
    steps: [
      go,
      {
        type: 'wait',
        target: [
          { by: 'role', role: 'table' },
          { by: 'css', selector: 'table' },
        ],
      },
      { type: 'extract', target: [{ by: 'column', header: '{{name_column}}' }], field: 'item' },
      { type: 'extract', target: [{ by: 'column', header: '{{value_column}}' }], field: 'value' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'collect-a-table-across-pages',
    name: 'Collect a table across three pages',
    category: 'scraping',
    description:
      'Reads two columns of a paged table, follows the next-page link twice and reads them again: three pages of rows in one run.',
    inputs: [
      startUrl('First page of the table', 'https://shop.example.com/products'),
      input('name_column', 'Header of the names column', 'Product'),
      input('value_column', 'Header of the values column', 'Price'),
      input('next_link', 'Name of the next-page link', 'Next page', { defaultValue: 'Next page' }),
    ],
    steps: [
      go,
      ...[1, 2, 3].flatMap((page) => [
        { type: 'extract', target: [{ by: 'column', header: '{{name_column}}' }], field: 'item' },
        { type: 'extract', target: [{ by: 'column', header: '{{value_column}}' }], field: 'value' },
        ...(page < 3
          ? [
              {
                type: 'click',
                target: [
                  { by: 'role', role: 'link', name: '{{next_link}}' },
                  { by: 'text', text: '{{next_link}}' },
                ],
              },
            ]
          : []),
      ]),
    ],
    advanced: true,
    published: true,
  },
  {
    slug: 'check-a-price',
    name: 'Check a product’s price',
    category: 'monitoring',
    description:
      'Opens a product page, checks it is the right product, reads its price and keeps a screenshot. Schedule it to watch the price.',
    inputs: [
      startUrl('Product page address', 'https://shop.example.com/products/trail-runner-shoes'),
      input('product_name', 'Product name as the page shows it', 'Trail Runner Shoes'),
      input('price_label', 'Label of the price', 'Price', { defaultValue: 'Price' }),
    ],
    steps: [
      go,
      {
        type: 'wait',
        target: [
          { by: 'role', role: 'heading', name: '{{product_name}}' },
          { by: 'text', text: '{{product_name}}' },
        ],
      },
      {
        type: 'extract',
        target: [
          { by: 'label', text: '{{price_label}}' },
          { by: 'testId', id: 'price' },
          { by: 'css', selector: '[itemprop="price"]' },
        ],
        field: 'price',
      },
      { type: 'screenshot', name: 'Price check' },
    ],
    advanced: false,
    published: true,
  },
  {
    slug: 'check-a-page-still-says',
    name: 'Check that a page still says something',
    category: 'monitoring',
    description: 'Opens a page and fails the run unless it shows your text: for opening hours, a status page, a notice you depend on.',
    inputs: [
      startUrl('Page address', 'https://status.example.com/'),
      input('expected_text', 'Text the page must show', 'All systems operational'),
    ],
    steps: [go, { type: 'assertText', text: '{{expected_text}}' }, { type: 'screenshot', name: 'Page' }],
    advanced: false,
    published: true,
  },
  {
    slug: 'find-a-product-and-watch-its-price',
    name: 'Find a product and watch its price and stock',
    category: 'monitoring',
    description:
      'Searches a shop for a product, opens it, reads its price and checks it is in stock: for shops whose product addresses change.',
    inputs: [
      startUrl('Shop address', 'https://shop.example.com/'),
      input('product_name', 'Product name as the shop shows it', 'Rain Jacket'),
      input('price_label', 'Label of the price', 'Price', { defaultValue: 'Price' }),
      input('in_stock_text', 'What the page says when it is in stock', 'In stock', { defaultValue: 'In stock' }),
    ],
    steps: [
      go,
      { type: 'type', target: searchBox, text: '{{product_name}}' },
      { type: 'press', key: 'Enter', target: searchBox },
      {
        type: 'click',
        target: [
          { by: 'role', role: 'link', name: '{{product_name}}' },
          { by: 'text', text: '{{product_name}}' },
        ],
      },
      {
        type: 'extract',
        target: [
          { by: 'label', text: '{{price_label}}' },
          { by: 'testId', id: 'price' },
          { by: 'css', selector: '[itemprop="price"]' },
        ],
        field: 'price',
      },
      { type: 'assertText', text: '{{in_stock_text}}' },
    ],
    advanced: true,
    published: true,
  },
]
