import type { ScriptedStep } from '../../scripted-model.ts'
import { all, expectText, extracted, fieldHas, fieldIs, readAll } from './checks.ts'
import type { RealAppTask } from './types.ts'

// TodoMVC: the same todo list written in Backbone, React, Vue, AngularJS and Knockout. Planned on
// one build, moved to another. `?seed=groceries` starts with: Buy milk, Pick up the dry cleaning
// (done), Call the plumber, Book dentist appointment, Return library books (done); `?seed=week`:
// Water the plants, Pay the electricity bill, Renew passport.

const NEW = 'What needs to be done?'
const add = (title: string): ScriptedStep[] => [
  { type: 'type', element: NEW, role: 'textbox', text: title },
  { type: 'press', element: NEW },
]
const todos = readAll('#todo-list li label', 'todos')
const visible = readAll('#todo-list li:visible label', 'visible')
const done = readAll('#todo-list li.completed label', 'done')
const active = readAll('#todo-list li:not(.completed) label', 'active')
const GROCERIES_ACTIVE = ['Buy milk', 'Call the plumber', 'Book dentist appointment']
const GROCERIES_DONE = ['Pick up the dry cleaning', 'Return library books']

export const TODOMVC_TASKS: RealAppTask[] = [
  {
    id: 'todo-add-three',
    app: 'todomvc',
    description: 'Add three todos: Buy bread, Feed the cat and Fix the bike',
    movedTo: 'react',
    model: [...add('Buy bread'), ...add('Feed the cat'), ...add('Fix the bike')],
    check: { after: [todos], judge: fieldIs('todos', ['Buy bread', 'Feed the cat', 'Fix the bike']) },
  },
  {
    id: 'todo-put-on-list',
    app: 'todomvc',
    description: "Put 'Renew car insurance' on my todo list",
    movedTo: 'vue',
    model: add('Renew car insurance'),
    check: { after: [todos], judge: fieldIs('todos', ['Renew car insurance']) },
  },
  {
    id: 'todo-type-enter',
    app: 'todomvc',
    description: 'Type Pack lunch into the box that asks what needs to be done and hit enter',
    movedTo: 'angularjs',
    model: add('Pack lunch'),
    check: { after: [todos], judge: fieldIs('todos', ['Pack lunch']) },
  },
  {
    id: 'todo-tick-milk',
    app: 'todomvc',
    description: 'Mark Buy milk as done',
    path: '?seed=groceries',
    movedTo: 'react',
    model: [{ type: 'click', element: 'Buy milk', role: 'checkbox' }],
    check: { after: [done], judge: fieldHas('done', ['Buy milk', ...GROCERIES_DONE]) },
  },
  {
    id: 'todo-tick-plumber',
    app: 'todomvc',
    description: "Tick off 'Call the plumber'",
    path: '?seed=groceries',
    build: 'vue',
    movedTo: 'knockoutjs',
    model: [{ type: 'click', element: 'Call the plumber', role: 'checkbox' }],
    check: { after: [done], judge: fieldHas('done', ['Call the plumber']) },
  },
  {
    id: 'todo-read-active',
    app: 'todomvc',
    description: 'Show only the active todos and copy their titles',
    path: '?seed=groceries',
    movedTo: 'angularjs',
    model: [
      { type: 'click', element: 'Active', role: 'link' },
      { type: 'extract', element: 'Buy milk', field: 'todos', all: true },
    ],
    check: { after: [visible], judge: all(fieldIs('visible', GROCERIES_ACTIVE), extracted(GROCERIES_ACTIVE)) },
  },
  {
    id: 'todo-read-completed',
    app: 'todomvc',
    description: 'Switch to the Completed view and get the names of the finished tasks',
    path: '?seed=groceries',
    build: 'vue',
    movedTo: 'backbone',
    model: [
      { type: 'click', element: 'Completed', role: 'link' },
      { type: 'extract', element: 'Pick up the dry cleaning', field: 'finished', all: true },
    ],
    check: { after: [visible], judge: all(fieldIs('visible', GROCERIES_DONE), extracted(GROCERIES_DONE)) },
  },
  {
    id: 'todo-clear-completed',
    app: 'todomvc',
    description: 'Clear the completed items',
    path: '?seed=groceries',
    build: 'react',
    movedTo: 'knockoutjs',
    model: [{ type: 'click', element: 'Clear completed', role: 'button' }],
    check: { after: [todos], judge: fieldIs('todos', GROCERIES_ACTIVE) },
  },
  {
    id: 'todo-read-counter',
    app: 'todomvc',
    description: 'How many items are left? Read the counter at the bottom',
    path: '?seed=groceries',
    build: 'angularjs',
    movedTo: 'vue',
    model: [{ type: 'extract', element: 'items left', field: 'left' }],
    check: { judge: extracted(['3']) },
  },
  {
    id: 'todo-complete-all',
    app: 'todomvc',
    description: 'Mark all as complete',
    path: '?seed=week',
    movedTo: 'vue',
    model: [{ type: 'click', element: 'Mark all as complete', role: 'checkbox' }],
    check: { after: [done], judge: fieldIs('done', ['Water the plants', 'Pay the electricity bill', 'Renew passport']) },
  },
  {
    id: 'todo-delete-milk',
    app: 'todomvc',
    description: 'Remove "Buy milk" from the list',
    path: '?seed=groceries',
    build: 'react',
    movedTo: 'backbone',
    model: [{ type: 'click', element: 'Buy milk', role: 'button' }],
    check: { after: [todos], judge: all(fieldHas('todos', ['Buy milk'], true), fieldHas('todos', ['Call the plumber'])) },
  },
  {
    id: 'todo-edit-in-place',
    app: 'todomvc',
    description: "Change 'Call the plumber' to 'Call the electrician' (double-click it to edit)",
    path: '?seed=groceries',
    movedTo: 'angularjs',
    model: [
      { type: 'click', element: 'Call the plumber' },
      { type: 'type', element: 'Call the plumber', role: 'textbox', text: 'Call the electrician' },
      { type: 'press', element: 'Call the electrician' },
    ],
    check: { after: [todos], judge: all(fieldHas('todos', ['Call the electrician']), fieldHas('todos', ['Call the plumber'], true)) },
  },
  {
    id: 'todo-read-all',
    app: 'todomvc',
    description: 'Give me everything on the todo list',
    path: '?seed=week',
    build: 'knockoutjs',
    movedTo: 'react',
    model: [{ type: 'extract', element: 'Water the plants', field: 'todos', all: true }],
    check: { judge: extracted(['Water the plants', 'Pay the electricity bill', 'Renew passport']) },
  },
  {
    id: 'todo-add-then-tick',
    app: 'todomvc',
    description: "Add 'Buy stamps', then check it off",
    build: 'angularjs',
    movedTo: 'backbone',
    model: [...add('Buy stamps'), { type: 'click', element: 'Buy stamps', role: 'checkbox' }],
    check: { after: [done], judge: fieldIs('done', ['Buy stamps']) },
  },
  {
    id: 'todo-add-then-filter',
    app: 'todomvc',
    description: 'Add Wash the car to the list and then filter by Active',
    path: '?seed=week',
    build: 'react',
    movedTo: 'vue',
    model: [...add('Wash the car'), { type: 'click', element: 'Active', role: 'link' }],
    check: {
      after: [visible],
      judge: fieldIs('visible', ['Water the plants', 'Pay the electricity bill', 'Renew passport', 'Wash the car']),
    },
  },
  {
    id: 'todo-untick',
    app: 'todomvc',
    description: "Return library books isn't finished after all - untick it",
    path: '?seed=groceries',
    build: 'knockoutjs',
    movedTo: 'angularjs',
    model: [{ type: 'click', element: 'Return library books', role: 'checkbox' }],
    check: { after: [active], judge: fieldHas('active', ['Return library books']) },
  },
  {
    id: 'todo-clear-then-count',
    app: 'todomvc',
    description: 'Get rid of the completed todos and then check that it says 3 items left',
    path: '?seed=groceries',
    movedTo: 'knockoutjs',
    model: [
      { type: 'click', element: 'Clear completed', role: 'button' },
      { type: 'assertText', text: '3 items left' },
    ],
    check: { after: [todos, expectText('#todo-count', '3')], judge: fieldIs('todos', GROCERIES_ACTIVE) },
  },
]
