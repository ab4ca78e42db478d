import type { RunEvidence } from './types.ts'
import { all, expectText, extracted, readAll } from './checks.ts'
import type { RealAppTask } from './types.ts'
import { API_KEY } from '../swagger-ui.ts'

// Swagger UI 5 (React) on the library API's description; moved to Swagger UI 4. The API records
// what it was asked: a task that calls it is judged by those requests.

const asked =
  (method: string, path: string, want: (request: RunEvidence['apps']['backend']['library']['requests'][number]) => boolean = () => true) =>
  ({ apps }: RunEvidence) =>
    apps.backend.library.requests.some((request) => request.method === method && request.path === path && want(request))
      ? null
      : `the API was not asked ${method} ${path} as the task says (asked: ${apps.backend.library.requests.map((request) => `${request.method} ${request.path}`).join(', ') || 'nothing'})`

const tryGetBooks = [
  { type: 'click' as const, element: 'List books', role: 'button' },
  { type: 'click' as const, element: 'Try it out', role: 'button' },
  { type: 'click' as const, element: 'Execute', role: 'button' },
]

export const SWAGGER_TASKS: RealAppTask[] = [
  {
    id: 'swagger-list-books',
    app: 'swagger-ui',
    description: 'Open GET /books, try it out and execute it, then copy the response body',
    movedTo: '4',
    model: [...tryGetBooks, { type: 'extract', element: 'The Living Mountain', field: 'response' }],
    check: { judge: all(asked('GET', '/api/books'), extracted(['The Living Mountain', 'Underland'])) },
  },
  {
    id: 'swagger-by-author',
    app: 'swagger-ui',
    description: 'Call List books with author set to Macfarlane and check that Underland comes back',
    movedTo: '4',
    model: [
      { type: 'click', element: 'List books', role: 'button' },
      { type: 'click', element: 'Try it out', role: 'button' },
      { type: 'type', element: 'author', role: 'textbox', text: 'Macfarlane' },
      { type: 'click', element: 'Execute', role: 'button' },
      { type: 'assertText', text: 'Underland' },
    ],
    check: { judge: asked('GET', '/api/books', (request) => request.query.author === 'Macfarlane') },
  },
  {
    id: 'swagger-authorize',
    app: 'swagger-ui',
    description: `Click Authorize, enter the API key ${API_KEY}, authorize and close the dialog`,
    movedTo: '4',
    model: [
      { type: 'click', element: 'Authorize', role: 'button' },
      { type: 'type', element: 'Value', role: 'textbox', text: API_KEY },
      { type: 'click', element: 'Authorize', role: 'button' },
      { type: 'click', element: 'Close', role: 'button' },
    ],
    check: { after: [readAll('.auth-wrapper button.authorize.locked', 'locked')], judge: () => null },
  },
  {
    id: 'swagger-read-operations',
    app: 'swagger-ui',
    description: 'List the summaries of all the operations on this page',
    movedTo: '4',
    model: [{ type: 'extract', element: 'List books', field: 'operations', all: true }],
    check: { judge: extracted(['List books', 'Add a book', 'Find a book by its number', 'Remove a book', 'List loans']) },
  },
  {
    id: 'swagger-book-two',
    app: 'swagger-ui',
    description: 'Look up book number 2 with "Find a book by its number" and read who wrote it',
    movedTo: '4',
    model: [
      { type: 'click', element: 'Find a book by its number', role: 'button' },
      { type: 'click', element: 'Try it out', role: 'button' },
      { type: 'type', element: 'bookId', role: 'textbox', text: '2' },
      { type: 'click', element: 'Execute', role: 'button' },
      { type: 'extract', element: 'Roger Deakin', field: 'author' },
    ],
    check: { judge: all(asked('GET', '/api/books/2'), extracted(['Roger Deakin'])) },
  },
  {
    id: 'swagger-loans',
    app: 'swagger-ui',
    description: 'Run the List loans request and check the response mentions Ada Lovelace',
    movedTo: '4',
    model: [
      { type: 'click', element: 'List loans', role: 'button' },
      { type: 'click', element: 'Try it out', role: 'button' },
      { type: 'click', element: 'Execute', role: 'button' },
      { type: 'assertText', text: 'Ada Lovelace' },
    ],
    check: { judge: asked('GET', '/api/loans') },
  },
  {
    id: 'swagger-schemas',
    app: 'swagger-ui',
    description: 'Expand the Book schema at the bottom and get its property names',
    movedTo: '4',
    model: [
      { type: 'click', element: 'Book', role: 'button' },
      { type: 'extract', element: 'title', field: 'properties', all: true },
    ],
    check: { judge: extracted(['title', 'author', 'year']) },
  },
  {
    id: 'swagger-delete-unauthorized',
    app: 'swagger-ui',
    description: 'Try to remove book 4 without authorizing, and make sure the answer is 401',
    movedTo: '4',
    model: [
      { type: 'click', element: 'Remove a book', role: 'button' },
      { type: 'click', element: 'Try it out', role: 'button' },
      { type: 'type', element: 'bookId', role: 'textbox', text: '4' },
      { type: 'click', element: 'Execute', role: 'button' },
      { type: 'assertText', text: '401' },
    ],
    check: { judge: asked('DELETE', '/api/books/4', (request) => request.apiKey === null) },
  },
  {
    id: 'swagger-collapse-books',
    app: 'swagger-ui',
    description: 'Collapse the books section and open the loans one; read the loans endpoint path',
    movedTo: '4',
    model: [
      { type: 'click', element: 'books', role: 'button' },
      { type: 'extract', element: '/loans', field: 'path' },
    ],
    check: { after: [expectText('#swagger-ui', 'List loans')], judge: extracted(['/loans']) },
  },
]
