import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { JSONEDITOR_BUILDS, jsonEditorPage, type JsonEditorBuild } from './jsoneditor.ts'
import { startMailDev } from './maildev.ts'
import { sendFile } from './static-files.ts'
import { createLibraryApi, OPENAPI, SWAGGER_BUILDS, swaggerInitializer, type SwaggerBuild } from './swagger-ui.ts'
import { TIDDLYWIKI_BUILDS, tiddlyWikiFile, type TiddlyWikiBuild } from './tiddlywiki.ts'
import { TODOMVC_BUILDS, todoMvcPage } from './todomvc.ts'

// Real open-source web applications written by others, installed from npm (devDependencies),
// served on 127.0.0.1 for the planner's real-app corpus (`npm run bench:planner -- --corpus real`)
// and its CI subset. One server holds the static apps under a path each, in every build:
//   /todomvc/examples/<framework>/   TodoMVC: backbone, react, vue, angularjs, knockoutjs
//   /tiddlywiki/<5.4|5.3>/           TiddlyWiki, one HTML file
//   /swagger-ui/<5|4>/               Swagger UI on the library API at /api
//   /jsoneditor/<10|9>/              JSONEditor on one order; Save posts to /jsoneditor/saved
// MailDev runs as its own program on its own port.

export const REAL_APP_NAMES = ['todomvc', 'tiddlywiki', 'swagger-ui', 'jsoneditor', 'maildev'] as const
export type RealAppName = (typeof REAL_APP_NAMES)[number]

/** Each app's builds, the first the one tasks are planned on unless they say otherwise. */
export const REAL_APP_BUILDS: Record<RealAppName, readonly string[]> = {
  todomvc: TODOMVC_BUILDS,
  tiddlywiki: Object.keys(TIDDLYWIKI_BUILDS),
  'swagger-ui': Object.keys(SWAGGER_BUILDS),
  jsoneditor: Object.keys(JSONEDITOR_BUILDS),
  maildev: ['2.2'],
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const modules = (name: string) => path.join(ROOT, 'node_modules', name)
const html = (response: ServerResponse, body: string): void =>
  void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body)

export async function startRealApps(options: { maildev?: boolean } = {}) {
  const library = createLibraryApi()
  const saved: unknown[] = []
  const mail = options.maildev === false ? null : await startMailDev(ROOT)

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://apps')
    const [, app, build = '', ...rest] = url.pathname.split('/')
    const file = rest.join('/')
    if (app === 'api') return library.handle(request, response, url)
    if (app === 'todomvc') {
      const page = build === 'examples' && (rest.length === 1 || (rest.length === 2 && ['', 'index.html'].includes(rest[1] ?? '')))
      const body = page ? await todoMvcPage(modules('todomvc'), rest[0] ?? '') : null
      if (body) return html(response, body)
      if (await sendFile(response, modules('todomvc'), [build, ...rest].join('/'))) return
    }
    if (app === 'tiddlywiki' && build in TIDDLYWIKI_BUILDS && !file)
      return html(response, await tiddlyWikiFile(ROOT, build as TiddlyWikiBuild))
    if (app === 'swagger-ui') {
      if (build === 'openapi.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(OPENAPI))
      if (build in SWAGGER_BUILDS) {
        if (file === 'swagger-initializer.js')
          return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(swaggerInitializer())
        if (await sendFile(response, modules(SWAGGER_BUILDS[build as SwaggerBuild]), file || 'index.html')) return
      }
    }
    if (app === 'jsoneditor') {
      if (build === 'saved' && request.method === 'POST') {
        let raw = ''
        for await (const chunk of request) raw += String(chunk)
        saved.push(JSON.parse(raw))
        return void response.writeHead(204).end()
      }
      if (build in JSONEDITOR_BUILDS) {
        if (!file || file === 'index.html') return html(response, jsonEditorPage())
        if (await sendFile(response, modules(JSONEDITOR_BUILDS[build as JsonEditorBuild]), file)) return
      }
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' })
      response.end(String(error))
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    /** The start page of a build of an app (its first build when unset). */
    url(app: RealAppName, build = REAL_APP_BUILDS[app][0] as string): string {
      if (app === 'todomvc') return `${base}/todomvc/examples/${build}/`
      if (app === 'maildev') {
        if (!mail) throw new Error('MailDev was not started')
        return `${mail.url}/`
      }
      return `${base}/${app}/${build}/`
    },
    /** What the apps' backends hold: the library API's books and requests, JSONEditor's saves, MailDev's mails. */
    backend: { library, saved, emails: async () => (mail ? mail.emails() : []) },
    /** Brings an app with a backend back to how it started (the static apps start afresh in each browser context). */
    async reset(app: RealAppName) {
      if (app === 'swagger-ui') library.reset()
      if (app === 'jsoneditor') saved.length = 0
      if (app === 'maildev') await mail?.reset()
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await mail?.close()
    },
  }
}

export type RealApps = Awaited<ReturnType<typeof startRealApps>>
