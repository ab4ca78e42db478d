import { describe, expect, it } from 'vitest'
import { readInstructions } from './instructions.ts'
import { knownBy } from './plan-search.ts'
import { valueIn } from './read-verb-clause.ts'
import type { Instruction } from './read-clause.ts'

const read = (text: string) =>
  readInstructions(text).map((entry) => ('instruction' in entry ? entry.instruction : { unread: entry.unread }))

describe('reading the verbs people use', () => {
  it.each<[string, (Instruction | { unread: string })[]]>([
    ['make sure Remember me is checked', [{ kind: 'check', element: 'Remember me', on: true }]],
    ['make sure the Newsletter box is not ticked', [{ kind: 'check', element: 'Newsletter box', on: false }]],
    ['mark Buy milk as done', [{ kind: 'check', element: 'Buy milk', on: true }]],
    ['mark "Buy milk" as not done', [{ kind: 'check', element: 'Buy milk', on: false }]],
    ['tick Remember me', [{ kind: 'check', element: 'Remember me', on: true }]],
    ['clear the Newsletter checkbox', [{ kind: 'check', element: 'Newsletter checkbox', on: false }]],
    ['hover over the Account menu', [{ kind: 'hover', element: 'Account menu' }]],
    ['double-click the report title', [{ kind: 'doubleClick', element: 'the report title' }]],
    ['double click on "Quarterly report"', [{ kind: 'doubleClick', element: 'Quarterly report' }]],
    ['clear the City field', [{ kind: 'clear', element: 'City field' }]],
    ['go back', [{ kind: 'back' }]],
    ['go back to the previous page', [{ kind: 'back' }]],
    ['scroll down', [{ kind: 'scroll', element: null }]],
    ['scroll to the footer', [{ kind: 'scroll', element: 'footer' }]],
    ['scroll down until "Item 40" appears', [{ kind: 'scroll', element: 'Item 40' }]],
    ['wait until Loading disappears', [{ kind: 'waitGone', element: 'Loading', quoted: false }]],
    ['wait for the spinner to go away', [{ kind: 'waitGone', element: 'spinner', quoted: false }]],
    ['wait until "Saving…" is gone', [{ kind: 'waitGone', element: 'Saving…', quoted: true }]],
    [
      'click Delete and accept the confirmation',
      [
        { kind: 'click', element: 'Delete' },
        { kind: 'dialog', action: 'accept', text: null },
      ],
    ],
    ['dismiss the alert', [{ kind: 'dialog', action: 'dismiss', text: null }]],
    ['Click Delete all and confirm', [{ kind: 'click', element: 'Delete all' }, { kind: 'confirm' }]],
    ['Then confirm the change', [{ kind: 'confirm' }]],
    ['Run the List loans request', [{ kind: 'run', element: 'List loans', settings: [] }]],
    [
      'Call List books with author set to Macfarlane',
      [{ kind: 'run', element: 'List books', settings: [{ field: 'author', value: 'Macfarlane' }] }],
    ],
    ['run the Find a book operation with bookId 2', [{ kind: 'run', element: 'Find a book', settings: [{ field: 'bookId', value: '2' }] }]],
    // An operation named in quotes, given the value that says which one.
    [
      'Look up book number 2 with "Find a book by its number"',
      [{ kind: 'run', element: 'Find a book by its number', settings: [{ field: null, value: '2' }] }],
    ],
    ["use 'Remove a book' to delete book #4", [{ kind: 'run', element: 'Remove a book', settings: [{ field: null, value: '4' }] }]],
    // What not to do first asks for no step.
    ['Try to remove book 4 without authorizing', [{ kind: 'remove', element: 'book 4', verb: 'remove' }]],
    // A constraint is not a step to leave out: it stays in the words.
    ['delete the rooms without parking', [{ kind: 'remove', element: 'rooms without parking', verb: 'delete' }]],
    ['answer the prompt with Q3', [{ kind: 'dialog', action: 'accept', text: 'Q3' }]],
    ['switch to the new tab', [{ kind: 'switchTab' }]],
    ['continue in the popup', [{ kind: 'switchTab' }]],
    ['accept the cookies', [{ kind: 'cookies', accept: true }]],
    ['reject all cookies', [{ kind: 'cookies', accept: false }]],
    ['dismiss the cookie banner', [{ kind: 'cookies', accept: true }]],
    ['check that "Error" does not appear', [{ kind: 'assertAbsent', text: 'Error' }]],
    ['verify the page does not show Out of stock', [{ kind: 'assertAbsent', text: 'Out of stock' }]],
    ['check that Remember me is ticked', [{ kind: 'assertChecked', element: 'Remember me', on: true }]],
    ['verify that Newsletter is unchecked', [{ kind: 'assertChecked', element: 'Newsletter', on: false }]],
    ['check that there are 3 results', [{ kind: 'assertCount', element: 'results', count: 3 }]],
    ['check that there are five rows in the list', [{ kind: 'assertCount', element: 'rows', count: 5 }]],
    ["tick off 'Call the plumber'", [{ kind: 'check', element: 'Call the plumber', on: true }]],
    ['cross Milk off the list', [{ kind: 'check', element: 'Milk', on: true }]],
    ['remove "Buy milk" from the list', [{ kind: 'remove', element: 'Buy milk', verb: 'remove' }]],
    ['delete the email about the marathon', [{ kind: 'remove', element: 'email about the marathon', verb: 'delete' }]],
    ['get rid of the completed todos', [{ kind: 'remove', element: 'completed todos', verb: 'get rid of' }]],
    ['delete the text in City', [{ kind: 'clear', element: 'City' }]],
    // 'it' is what the clause before named: the entry added, the thing a statement is about.
    [
      "add 'Buy stamps', then check it off",
      [
        { kind: 'add', text: 'Buy stamps', into: null },
        { kind: 'check', element: 'Buy stamps', on: true },
      ],
    ],
    [
      "Return library books isn't finished after all - untick it",
      [{ unread: "Return library books isn't finished after all" }, { kind: 'check', element: 'Return library books', on: false }],
    ],
    // A hint in brackets says how: the planner finds the way itself.
    [
      "change 'Call the plumber' to 'Call the electrician' (double-click it to edit)",
      [{ kind: 'type', element: null, text: 'Call the electrician', was: 'Call the plumber' }],
    ],
    ["put 'Renew car insurance' on my todo list", [{ kind: 'add', text: 'Renew car insurance', into: 'todo' }]],
    ['check that it says 3 items left', [{ kind: 'assert', text: '3 items left' }]],
    ['save it', [{ kind: 'submit', first: 'save' }]],
    ['how many items are left?', [{ kind: 'extract', what: 'items left', field: null }]],
    ['give me everything on the todo list', [{ kind: 'extract', what: 'everything on the todo list', field: null }]],
    ['which notes mention it?', [{ kind: 'extract', what: 'all the notes', field: null }]],
    // Unchanged: a check of a text, a box ticked by a verb, a dialog inside the page.
    ['make sure the page says Thank you', [{ kind: 'assert', text: 'Thank you' }]],
    ['check the Terms and Conditions box', [{ kind: 'check', element: 'the Terms and Conditions box', on: true }]],
    ['close the dialog', [{ kind: 'click', element: 'close dialog' }]],
  ])('%s', (text, expected) => {
    expect(read(text)).toEqual(expected)
  })
})

describe('the value that says which one', () => {
  it.each([
    ['book number 2', '2'],
    ['book 4', '4'],
    ['order #A-17', 'A-17'],
    ['the invoice 2024-03', '2024-03'],
    ['the newest book', null],
  ])('%s -> %s', (words, value) => expect(valueIn(words)).toBe(value))
})

describe('a thing known by who sent it', () => {
  it.each([
    ['the email from Ada Lovelace', { by: 'Ada Lovelace', one: true }],
    ['the message from the library', { by: 'library', one: true }],
    ['the emails from Grace Hopper', { by: 'Grace Hopper', one: false }],
    ['the settings from the menu', null],
    ['the Pancakes recipe', null],
  ])('%s', (words, known) => expect(knownBy(words)).toEqual(known))
})
