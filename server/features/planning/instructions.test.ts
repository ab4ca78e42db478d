import { describe, expect, it } from 'vitest'
import { readInstructions } from './instructions.ts'
import type { Instruction } from './read-clause.ts'

const read = (text: string) =>
  readInstructions(text).map((entry) => ('instruction' in entry ? entry.instruction : { unread: entry.unread }))

describe('reading a task said in words', () => {
  it.each<[string, (Instruction | { unread: string })[]]>([
    [
      "Open https://shop.example, search for 'rain jacket', then extract the prices as price",
      [
        { kind: 'navigate', url: 'https://shop.example' },
        { kind: 'search', text: 'rain jacket' },
        { kind: 'extract', what: 'the prices', field: 'price' },
      ],
    ],
    ['go to example.com/contact.', [{ kind: 'navigate', url: 'https://example.com/contact' }]],
    ['Visit the products page', [{ kind: 'open', element: 'the products' }]],
    [
      'Type "Ada Lovelace" into Full name and ada@example.com into Email',
      [
        { kind: 'type', element: 'Full name', text: 'Ada Lovelace' },
        { kind: 'type', element: 'Email', text: 'ada@example.com' },
      ],
    ],
    [
      'Fill in the email field with bob@example.com and the password field with hunter2 then click on the Log in button',
      [
        { kind: 'type', element: 'email field', text: 'bob@example.com' },
        { kind: 'type', element: 'password field', text: 'hunter2' },
        { kind: 'click', element: 'the Log in button' },
      ],
    ],
    [
      'Enter the email walker@example.com, enter the password trail-mix-42, press Sign in',
      [
        { kind: 'type', element: 'email', text: 'walker@example.com' },
        { kind: 'type', element: 'password', text: 'trail-mix-42' },
        { kind: 'click', element: 'Sign in' },
      ],
    ],
    ['select Germany from the country dropdown', [{ kind: 'select', element: 'country dropdown', value: 'Germany' }]],
    ['set Size to Large', [{ kind: 'select', element: 'Size', value: 'Large' }]],
    ['log in as walker@example.com with password trail-mix-42', [{ kind: 'signIn', user: 'walker@example.com', password: 'trail-mix-42' }]],
    ['Sign in using a@b.co / secret1', [{ kind: 'signIn', user: 'a@b.co', password: 'secret1' }]],
    ['check the Terms and Conditions box', [{ kind: 'check', element: 'the Terms and Conditions box', on: true }]],
    ['untick Newsletter', [{ kind: 'check', element: 'Newsletter', on: false }]],
    ['press Enter', [{ kind: 'press', key: 'Enter', element: null }]],
    [
      'wait 2 seconds, then wait for 500 ms',
      [
        { kind: 'waitTime', ms: 2000 },
        { kind: 'waitTime', ms: 500 },
      ],
    ],
    ['wait for "Order confirmed" to appear', [{ kind: 'waitFor', element: 'Order confirmed', quoted: true }]],
    ['take a screenshot called results', [{ kind: 'screenshot', name: 'results' }]],
    ['take another screenshot', [{ kind: 'screenshot', name: null }]],
    ['make sure the page says Thank you', [{ kind: 'assert', text: 'Thank you' }]],
    ['Add a todo "Buy milk"', [{ kind: 'add', text: 'Buy milk', into: 'todo' }]],
    ["add 'Walk the dog' to my list", [{ kind: 'add', text: 'Walk the dog', into: 'list' }]],
    ['create a new task called Pay rent', [{ kind: 'add', text: 'Pay rent', into: 'task' }]],
    ['add "Milk"', [{ kind: 'add', text: 'Milk', into: null }]],
    [
      'Add three todos: Buy bread, Feed the cat and Fix the bike',
      [
        { kind: 'add', text: 'Buy bread', into: 'todos' },
        { kind: 'add', text: 'Feed the cat', into: 'todos' },
        { kind: 'add', text: 'Fix the bike', into: 'todos' },
      ],
    ],
    ['Change the city from Arlington to Leeds', [{ kind: 'type', element: 'city', text: 'Leeds', was: 'Arlington' }]],
    ['update Quantity to 3', [{ kind: 'type', element: 'Quantity', text: '3' }]],
    ['Show only the active todos', [{ kind: 'click', element: 'active' }]],
    ['switch to the Completed view', [{ kind: 'click', element: 'Completed' }]],
    ['try it out and execute it', [{ unread: 'try it out and execute it' }]],
    ['add the Oak table to the cart', [{ unread: 'add the Oak table to the cart' }]],
    ["check that 'Welcome back' appears", [{ kind: 'assert', text: 'Welcome back' }]],
    ['fill Message with Where is my parcel?', [{ kind: 'type', element: 'Message', text: 'Where is my parcel?' }]],
    [
      'Collect all product names and prices',
      [
        { kind: 'extract', what: 'all product names', field: null },
        { kind: 'extract', what: 'prices', field: null },
      ],
    ],
    ['Get the prices from the table', [{ kind: 'extract', what: 'the prices', field: null }]],
    ['copy the totals to a column called total', [{ kind: 'extract', what: 'the totals', field: 'total' }]],
    // 'has to be back' says when, not where the value goes.
    ['get the date Wildwood has to be back', [{ kind: 'extract', what: 'the date Wildwood has to be back', field: null }]],
    ['send the message', [{ kind: 'click', element: 'send message' }]],
    ['submit the form', [{ kind: 'submit' }]],
    ['accept the cookies', [{ kind: 'cookies', accept: true }]],
    ['fly to the moon, then click OK', [{ unread: 'fly to the moon' }, { kind: 'click', element: 'OK' }]],
    ['Search the notebook for bothy', [{ kind: 'search', text: 'bothy' }]],
    ["Check that there's an email titled 'Compiler meeting moved' in the list", [{ kind: 'assert', text: 'Compiler meeting moved' }]],
    ['check the response mentions Ada Lovelace', [{ kind: 'assert', text: 'Ada Lovelace' }]],
    ['make sure the answer is 401', [{ kind: 'assert', text: '401' }]],
    ['check that Underland comes back', [{ kind: 'assert', text: 'Underland' }]],
    [
      'Set status to shipped, then save the order',
      [
        { kind: 'select', element: 'status', value: 'shipped' },
        { kind: 'submit', first: 'save' },
      ],
    ],
    ['Use the search box of the editor to find socks', [{ kind: 'search', text: 'socks' }]],
    ['Expand the Book schema at the bottom', [{ kind: 'click', element: 'Book', expand: true }]],
    ['Collapse the books section', [{ kind: 'click', element: 'books', expand: false }]],
    ['Switch the editor to Code mode', [{ kind: 'select', element: 'editor mode', value: 'Code' }]],
    // A question asked first is answered where 'read them' says, after the steps that lead there.
    [
      'Which tags does this notebook use? Look under More, in the Tags tab, and read them',
      [
        { kind: 'click', element: 'More tab' },
        { kind: 'click', element: 'Tags tab' },
        { kind: 'extract', what: 'all the tags', field: null },
      ],
    ],
    ['tell me which notes mention it', [{ kind: 'extract', what: 'all the notes', field: null }]],
    ['tell me which is cheaper', [{ kind: 'extract', what: 'which is cheaper', field: null }]],
    // Only a question waits for 'read them'; an extract said as an order stays where it is.
    [
      'Copy the tags, open Settings and read them',
      [
        { kind: 'extract', what: 'the tags', field: null },
        { kind: 'open', element: 'Settings' },
        { kind: 'extract', what: 'them', field: null },
      ],
    ],
    ['Collapse all fields of the tree', [{ kind: 'click', element: 'Collapse all fields of the tree' }]],
  ])('%s', (text, expected) => {
    expect(read(text)).toEqual(expected)
  })

  it('keeps quoted words whole, commas and "and" included', () => {
    expect(read('type "salt, pepper and oil" into Notes')).toEqual([{ kind: 'type', element: 'Notes', text: 'salt, pepper and oil' }])
  })

  it('reads at most 2,000 characters', () => {
    const reads = readInstructions(`${'click Next, '.repeat(400)}click Done`)
    expect(reads.every((entry) => 'instruction' in entry && entry.instruction.kind === 'click')).toBe(true)
    expect(reads.length).toBeLessThan(400)
  })
})

describe('questions that ask for a value', () => {
  it('are extractions', () => {
    expect(read('tell me the total')).toEqual([{ kind: 'extract', what: 'the total', field: null }])
    expect(read('What is the order status?')).toEqual([{ kind: 'extract', what: 'the order status', field: null }])
  })
})
