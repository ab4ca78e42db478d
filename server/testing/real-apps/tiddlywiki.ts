import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

// TiddlyWiki (its own framework, a single-page notebook from 2011 on) as people keep it: one HTML
// file that holds the program and the notes. Each version is built by the package's own command
// line from a wiki folder of a few notes, once per process; a browser that opens it starts from
// those notes (nothing is saved back), so every run begins alike.

export const TIDDLYWIKI_BUILDS = { '5.4': 'tiddlywiki', '5.3': 'tiddlywiki-5-3' } as const
export type TiddlyWikiBuild = keyof typeof TIDDLYWIKI_BUILDS

/** The notes the wiki starts with: title, tags and text. */
export const NOTES: { title: string; tags?: string; fields?: Record<string, string>; text: string }[] = [
  { title: '$:/SiteTitle', text: 'Field Notes' },
  { title: '$:/SiteSubtitle', text: 'a walker’s notebook' },
  { title: '$:/DefaultTiddlers', text: '[[Welcome]]' },
  { title: 'Welcome', tags: 'Start', text: 'This notebook keeps the [[Packing list]], [[Pancakes]] and the [[Reading list]].' },
  { title: 'Packing list', tags: 'Trip', text: 'Tent, stove, water filter, map of the Cairngorms, head torch.' },
  { title: 'Pancakes', tags: 'Recipe', fields: { serves: '4' }, text: '200 g flour, 2 eggs, 300 ml milk, a pinch of salt.' },
  { title: 'Flapjacks', tags: 'Recipe', fields: { serves: '8' }, text: '250 g oats, 125 g butter, 125 g golden syrup.' },
  { title: 'Reading list', tags: 'Books', text: 'The Living Mountain; Wildwood; The Old Ways.' },
  { title: 'Bothy at Corrour', tags: 'Trip Place', text: 'An open bothy below the Devil’s Point; bring dry kindling.' },
  { title: 'Gear repairs', tags: 'Trip', text: 'Replace the tent pole section and reproof the jacket.' },
]

const tid = (note: (typeof NOTES)[number]) =>
  [
    `title: ${note.title}`,
    ...(note.tags ? [`tags: ${note.tags}`] : []),
    ...Object.entries(note.fields ?? {}).map(([name, value]) => `${name}: ${value}`),
    '',
    note.text,
  ].join('\n')

const built = new Map<TiddlyWikiBuild, Promise<string>>()

/** The single-file wiki of this version, built on first use. */
export function tiddlyWikiFile(root: string, build: TiddlyWikiBuild): Promise<string> {
  let html = built.get(build)
  if (!html) {
    html = buildWiki(path.join(root, 'node_modules', TIDDLYWIKI_BUILDS[build], 'tiddlywiki.js'))
    built.set(build, html)
  }
  return html
}

async function buildWiki(program: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'aether-tiddlywiki-'))
  try {
    await mkdir(path.join(folder, 'tiddlers'))
    await writeFile(
      path.join(folder, 'tiddlywiki.info'),
      JSON.stringify({ plugins: [], themes: ['tiddlywiki/vanilla', 'tiddlywiki/snowwhite'] }),
    )
    for (const [index, note] of NOTES.entries()) await writeFile(path.join(folder, 'tiddlers', `note-${index}.tid`), tid(note))
    await promisify(execFile)(
      process.execPath,
      [program, folder, '--output', path.join(folder, 'out'), '--render', '$:/core/save/all', 'index.html', 'text/plain'],
      {
        timeout: 120_000,
      },
    )
    return await readFile(path.join(folder, 'out', 'index.html'), 'utf8')
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}
