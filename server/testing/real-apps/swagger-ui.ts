import type { IncomingMessage, ServerResponse } from 'node:http'

// Swagger UI (React) showing the OpenAPI description of a small library API, with that API behind
// it on the same server, so "Try it out" really calls it. The API remembers what it was asked
// (`requests`) and its books; `reset()` brings the books back.

export const SWAGGER_BUILDS = { '5': 'swagger-ui-dist', '4': 'swagger-ui-dist-4' } as const
export type SwaggerBuild = keyof typeof SWAGGER_BUILDS

const BOOKS = [
  { id: 1, title: 'The Living Mountain', author: 'Nan Shepherd', year: 1977, available: true },
  { id: 2, title: 'Wildwood', author: 'Roger Deakin', year: 2007, available: false },
  { id: 3, title: 'The Old Ways', author: 'Robert Macfarlane', year: 2012, available: true },
  { id: 4, title: 'Underland', author: 'Robert Macfarlane', year: 2019, available: true },
]

export const API_KEY = 'reader-key-7'

const book = {
  type: 'object',
  required: ['title', 'author'],
  properties: {
    id: { type: 'integer', example: 5 },
    title: { type: 'string', example: 'Waterlog' },
    author: { type: 'string', example: 'Roger Deakin' },
    year: { type: 'integer', example: 1999 },
    available: { type: 'boolean', example: true },
  },
}

export const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Riverside Library API', version: '2.1.0', description: 'Books and loans of the Riverside Library.' },
  servers: [{ url: '/api' }],
  tags: [
    { name: 'books', description: 'The catalogue' },
    { name: 'loans', description: 'Who has borrowed what' },
  ],
  components: {
    securitySchemes: { readerKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: {
      Book: book,
      Loan: {
        type: 'object',
        properties: { bookId: { type: 'integer' }, member: { type: 'string' }, due: { type: 'string', format: 'date' } },
      },
    },
  },
  security: [{ readerKey: [] }],
  paths: {
    '/books': {
      get: {
        tags: ['books'],
        summary: 'List books',
        operationId: 'listBooks',
        parameters: [{ name: 'author', in: 'query', description: 'Only books by this author', schema: { type: 'string' } }],
        responses: {
          200: {
            description: 'The books',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Book' } } } },
          },
        },
      },
      post: {
        tags: ['books'],
        summary: 'Add a book',
        operationId: 'addBook',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Book' } } } },
        responses: { 201: { description: 'Added' }, 401: { description: 'No reader key' } },
      },
    },
    '/books/{bookId}': {
      get: {
        tags: ['books'],
        summary: 'Find a book by its number',
        operationId: 'getBook',
        parameters: [{ name: 'bookId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'The book' }, 404: { description: 'No such book' } },
      },
      delete: {
        tags: ['books'],
        summary: 'Remove a book',
        operationId: 'deleteBook',
        parameters: [{ name: 'bookId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 204: { description: 'Removed' }, 401: { description: 'No reader key' } },
      },
    },
    '/loans': {
      get: {
        tags: ['loans'],
        summary: 'List loans',
        operationId: 'listLoans',
        responses: {
          200: {
            description: 'The loans',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Loan' } } } },
          },
        },
      },
    },
  },
}

/** Swagger UI's start script, pointed at our description (no validator badge: it would ask the internet). */
export const swaggerInitializer = () => `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/swagger-ui/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  });
};`

export interface ApiRequest {
  method: string
  path: string
  query: Record<string, string>
  apiKey: string | null
  body: unknown
}

/** The library API behind Swagger UI. */
export function createLibraryApi() {
  let books = structuredClone(BOOKS)
  const requests: ApiRequest[] = []
  async function handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    let raw = ''
    for await (const chunk of request) raw += String(chunk)
    const apiKey = (request.headers['x-api-key'] as string | undefined) ?? null
    const body = raw ? (JSON.parse(raw) as unknown) : null
    requests.push({ method: request.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), apiKey, body })
    const json = (status: number, value: unknown): void =>
      void response.writeHead(status, { 'content-type': 'application/json' }).end(value === undefined ? '' : JSON.stringify(value))
    const writing = request.method === 'POST' || request.method === 'DELETE'
    if (writing && apiKey !== API_KEY) return json(401, { message: 'A reader key is needed' })
    if (url.pathname === '/api/books' && request.method === 'GET') {
      const author = url.searchParams.get('author')
      return json(200, author ? books.filter((entry) => entry.author.toLowerCase().includes(author.toLowerCase())) : books)
    }
    if (url.pathname === '/api/books' && request.method === 'POST') {
      const added = { ...(body as object), id: Math.max(0, ...books.map((entry) => entry.id)) + 1 } as (typeof books)[number]
      books.push(added)
      return json(201, added)
    }
    const one = /^\/api\/books\/(\d+)$/.exec(url.pathname)
    if (one) {
      const found = books.find((entry) => entry.id === Number(one[1]))
      if (!found) return json(404, { message: 'No such book' })
      if (request.method === 'DELETE') {
        books = books.filter((entry) => entry !== found)
        return void response.writeHead(204).end()
      }
      return json(200, found)
    }
    if (url.pathname === '/api/loans') return json(200, [{ bookId: 2, member: 'Ada Lovelace', due: '2026-04-09' }])
    return json(404, { message: 'Not found' })
  }
  return {
    handle,
    requests,
    books: () => books,
    reset() {
      books = structuredClone(BOOKS)
      requests.length = 0
    },
  }
}
