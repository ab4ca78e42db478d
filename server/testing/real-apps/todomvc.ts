import { readFile } from 'node:fs/promises'
import path from 'node:path'

// TodoMVC (the `todomvc` package, 2014): one app written in many frameworks by others. Each build
// keeps its list in localStorage under its own key and shape; a start page asked for with
// `?seed=<list>` finds that list there on its first load in a tab (a fresh browser context, as a
// cloud run has), so a task can begin with todos already in the list. The app's files are not
// changed: the seeding script is put before the app's own scripts.

export const TODOMVC_BUILDS = ['backbone', 'react', 'vue', 'angularjs', 'knockoutjs'] as const
export type TodoMvcBuild = (typeof TODOMVC_BUILDS)[number]

/** The lists a task can start with. */
export const TODO_SEEDS: Record<string, { title: string; completed: boolean }[]> = {
  groceries: [
    { title: 'Buy milk', completed: false },
    { title: 'Pick up the dry cleaning', completed: true },
    { title: 'Call the plumber', completed: false },
    { title: 'Book dentist appointment', completed: false },
    { title: 'Return library books', completed: true },
  ],
  week: [
    { title: 'Water the plants', completed: false },
    { title: 'Pay the electricity bill', completed: false },
    { title: 'Renew passport', completed: false },
  ],
}

const seedScript = () => `(function () {
  var seeds = ${JSON.stringify(TODO_SEEDS)};
  var name = new URLSearchParams(location.search).get('seed');
  if (!name || !seeds[name] || sessionStorage.getItem('seeded')) return;
  sessionStorage.setItem('seeded', name);
  var parts = location.pathname.split('/');
  var build = parts[parts.indexOf('examples') + 1];
  var todos = seeds[name].map(function (todo, index) {
    return { id: 'seed-' + index, title: todo.title, completed: todo.completed, order: index + 1 };
  });
  var keys = { jquery: 'todos-jquery', react: 'react-todos', vue: 'todos-vuejs', angularjs: 'todos-angularjs', knockoutjs: 'todos-knockoutjs' };
  if (build === 'backbone') {
    localStorage.setItem('todos-backbone', todos.map(function (todo) { return todo.id; }).join(','));
    todos.forEach(function (todo) { localStorage.setItem('todos-backbone-' + todo.id, JSON.stringify(todo)); });
  } else if (keys[build]) {
    localStorage.setItem(keys[build], JSON.stringify(todos));
  }
})();`

/** A build's start page with the seeding script before its own scripts. */
export async function todoMvcPage(root: string, build: string): Promise<string | null> {
  if (!(TODOMVC_BUILDS as readonly string[]).includes(build)) return null
  const html = await readFile(path.join(root, 'examples', build, 'index.html'), 'utf8')
  return html.replace('<script', `<script>${seedScript()}</script>\n<script`)
}
