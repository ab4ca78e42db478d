import { all, expectText, extracted, fieldHas, readAll } from './checks.ts'
import type { RealAppTask } from './types.ts'

// TiddlyWiki: a notebook of a few notes (../tiddlywiki.ts, NOTES), opened at "Welcome". Planned on
// 5.4, moved to 5.3.

const story = readAll('.tc-story-river .tc-tiddler-frame .tc-title', 'story')

export const TIDDLYWIKI_TASKS: RealAppTask[] = [
  {
    id: 'tw-open-pancakes',
    app: 'tiddlywiki',
    description: 'Open the Pancakes recipe and copy out its ingredients',
    movedTo: '5.3',
    model: [
      { type: 'click', element: 'Pancakes', role: 'link' },
      { type: 'extract', element: '200 g flour', field: 'ingredients' },
    ],
    check: { after: [story], judge: all(fieldHas('story', ['Pancakes']), extracted(['200 g flour, 2 eggs'])) },
  },
  {
    id: 'tw-search-bothy',
    app: 'tiddlywiki',
    description: 'Search the notebook for bothy and open the note it finds',
    movedTo: '5.3',
    model: [
      { type: 'type', element: 'Search', role: 'searchbox', text: 'bothy' },
      { type: 'click', element: 'Bothy at Corrour', role: 'link' },
    ],
    check: { after: [story], judge: fieldHas('story', ['Bothy at Corrour']) },
  },
  {
    id: 'tw-new-note',
    app: 'tiddlywiki',
    description: "Create a new tiddler titled Tent pegs with the text 'Buy 12 titanium pegs' and save it",
    movedTo: '5.3',
    model: [
      { type: 'click', element: 'new tiddler', role: 'button' },
      { type: 'type', element: 'New Tiddler', role: 'textbox', text: 'Tent pegs' },
      { type: 'type', element: 'text', role: 'textbox', text: 'Buy 12 titanium pegs' },
      { type: 'click', element: 'ok', role: 'button' },
    ],
    check: { after: [story, expectText('.tc-story-river', 'Buy 12 titanium pegs')], judge: fieldHas('story', ['Tent pegs']) },
  },
  {
    id: 'tw-read-welcome',
    app: 'tiddlywiki',
    description: 'Read the text of the Welcome tiddler',
    movedTo: '5.3',
    model: [{ type: 'extract', element: 'This notebook keeps', field: 'welcome' }],
    check: { judge: extracted(['This notebook keeps the Packing list']) },
  },
  {
    id: 'tw-recipe-tag',
    app: 'tiddlywiki',
    description: 'Open Pancakes, click its Recipe tag and list the recipes it shows',
    movedTo: '5.3',
    model: [
      { type: 'click', element: 'Pancakes', role: 'link' },
      { type: 'click', element: 'Recipe', role: 'button' },
      { type: 'extract', element: 'Flapjacks', field: 'recipes', all: true },
    ],
    check: { judge: extracted(['Flapjacks', 'Pancakes']) },
  },
  {
    id: 'tw-edit-packing',
    app: 'tiddlywiki',
    description: 'Edit the Packing list so it says: Tent, stove, map, spare socks. Then confirm the change',
    movedTo: '5.3',
    model: [
      { type: 'click', element: 'Packing list', role: 'link' },
      { type: 'click', element: 'edit', role: 'button' },
      { type: 'type', element: 'Tent, stove', role: 'textbox', text: 'Tent, stove, map, spare socks' },
      { type: 'click', element: 'ok', role: 'button' },
    ],
    check: { after: [story, expectText('.tc-story-river', 'spare socks')], judge: fieldHas('story', ['Packing list']) },
  },
  {
    id: 'tw-tags-tab',
    app: 'tiddlywiki',
    description: 'Which tags does this notebook use? Look under More, in the Tags tab, and read them',
    movedTo: '5.3',
    model: [
      { type: 'click', element: 'More', role: 'tab' },
      { type: 'click', element: 'Tags', role: 'tab' },
      { type: 'extract', element: 'Recipe', field: 'tags', all: true },
    ],
    check: { judge: extracted(['Recipe', 'Trip']) },
  },
  {
    id: 'tw-open-two',
    app: 'tiddlywiki',
    description: 'Open the Reading list and the Packing list from the Welcome note',
    movedTo: '5.3',
    model: [
      { type: 'click', element: 'Reading list', role: 'link' },
      { type: 'click', element: 'Packing list', role: 'link' },
    ],
    check: { after: [story], judge: fieldHas('story', ['Reading list', 'Packing list', 'Welcome']) },
  },
  {
    id: 'tw-search-read',
    app: 'tiddlywiki',
    description: 'Look up Wildwood in the search box and tell me which notes mention it',
    movedTo: '5.3',
    model: [
      { type: 'type', element: 'Search', role: 'searchbox', text: 'Wildwood' },
      { type: 'extract', element: 'Reading list', role: 'link', field: 'notes', all: true },
    ],
    check: { judge: extracted(['Reading list']) },
  },
]
