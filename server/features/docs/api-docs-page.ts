import { html, raw } from 'hono/html'

interface OpenApiOperation {
  summary?: string
  tags?: string[]
  security?: unknown[]
  requestBody?: { content?: Record<string, { schema?: unknown }> }
  parameters?: { name: string; in: string; required?: boolean; description?: string }[]
  responses?: Record<string, { description?: string }>
}

interface OpenApiDocument {
  info: { title: string; version: string; description?: string }
  paths: Record<string, Record<string, OpenApiOperation>>
  components?: { schemas?: Record<string, unknown> }
}

/** Readable API docs rendered on our server from the OpenAPI document: no CDN, no script. */
export function renderApiDocs(doc: OpenApiDocument) {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  )
  const tags = [...new Set(operations.map((entry) => entry.operation.tags?.[0] ?? 'Other'))]
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${doc.info.title} — API reference</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <style>
          body {
            font:
              15px/1.6 system-ui,
              sans-serif;
            margin: 0;
            background: #0b0d12;
            color: #e6e8ee;
          }
          main {
            max-width: 960px;
            margin: 0 auto;
            padding: 32px 20px 80px;
          }
          a {
            color: #8ab4ff;
          }
          h2 {
            margin-top: 40px;
            border-bottom: 1px solid #2a2f3a;
            padding-bottom: 6px;
          }
          section {
            border: 1px solid #2a2f3a;
            border-radius: 10px;
            padding: 14px 16px;
            margin: 14px 0;
            background: #11141b;
          }
          .method {
            display: inline-block;
            min-width: 64px;
            font-weight: 700;
            font-family: ui-monospace, monospace;
          }
          .GET {
            color: #5ad69b;
          }
          .POST {
            color: #8ab4ff;
          }
          .PUT {
            color: #f3c969;
          }
          .DELETE {
            color: #ff7b7b;
          }
          code,
          pre {
            font-family: ui-monospace, monospace;
            font-size: 13px;
          }
          pre {
            background: #0b0d12;
            padding: 10px;
            border-radius: 8px;
            overflow-x: auto;
          }
          .muted {
            color: #9aa3b2;
          }
        </style>
      </head>
      <body>
        <main>
          <h1>${doc.info.title} <span class="muted">v${doc.info.version}</span></h1>
          <p>${doc.info.description ?? ''}</p>
          <p>
            Machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a>. Send JSON; errors are
            <code>{ "message": "..." }</code> with an HTTP status. Authenticate with the <code>auth_session</code> cookie or
            <code>Authorization: Bearer &lt;token&gt;</code> from <code>POST /api/auth/login</code>.
          </p>
          <p>
            TypeScript SDK, typed from this document: <code>npm install &lt;this site&gt;/downloads/aether-sdk.tgz</code> (<a
              href="/downloads/aether-sdk.tgz"
              >aether-sdk.tgz</a
            >; its README has examples).
          </p>
          ${tags.map(
            (tag) =>
              html`<h2>${tag}</h2>
                ${operations
                  .filter((entry) => (entry.operation.tags?.[0] ?? 'Other') === tag)
                  .map(
                    ({ path, method, operation }) =>
                      html`<section>
                        <div><span class="method ${method}">${method}</span> <code>/api${path}</code></div>
                        <p>
                          ${operation.summary ?? ''}${operation.security?.length ? html` <span class="muted">(sign-in required)</span>` : ''}
                        </p>
                        ${
                          operation.parameters?.length
                            ? html`<p class="muted">
                                Parameters:
                                ${operation.parameters.map((p) => html`<code>${p.name}</code> (${p.in}${p.required ? ', required' : ''}) `)}
                              </p>`
                            : ''
                        }
                        ${
                          operation.requestBody?.content?.['application/json']?.schema
                            ? html`<details>
                                <summary>Request body</summary>
                                <pre>
${JSON.stringify(resolveRefs(operation.requestBody.content['application/json'].schema, doc), null, 2)}</pre>
                              </details>`
                            : ''
                        }
                        <p class="muted">
                          Responses:
                          ${raw(
                            Object.entries(operation.responses ?? {})
                              .map(([status, r]) => `<code>${status}</code> ${escapeHtml(r.description ?? '')}`)
                              .join(' · '),
                          )}
                        </p>
                      </section>`,
                  )}`,
          )}
        </main>
      </body>
    </html>`
}

function resolveRefs(schema: unknown, doc: OpenApiDocument, depth = 0): unknown {
  if (depth > 6 || schema === null || typeof schema !== 'object') return schema
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, doc, depth + 1))
  const ref = (schema as { $ref?: string }).$ref
  if (ref?.startsWith('#/components/schemas/')) return resolveRefs(doc.components?.schemas?.[ref.slice(21)], doc, depth + 1)
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, doc, depth + 1)]))
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
