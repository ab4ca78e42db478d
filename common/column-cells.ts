/** An XPath string literal for any text (quotes included). */
function literal(text: string): string {
  if (!text.includes("'")) return `'${text}'`
  if (!text.includes('"')) return `"${text}"`
  return `concat(${text
    .split("'")
    .map((part) => `'${part}'`)
    .join(`, "'", `)})`
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

function headerCell(header: string, exact: boolean): string {
  return exact
    ? `th[normalize-space(.)=${literal(header.trim())}]`
    : `th[contains(translate(normalize-space(.), '${UPPER}', '${UPPER.toLowerCase()}'), ${literal(header.trim().toLowerCase())})]`
}

/**
 * The body cells of the table column whose header says `header` (loosely: part of it, any case;
 * or exactly): the cells at the header's position in each row, as an XPath. Tables without
 * spanning cells. The server's locators and the extension's in-page resolver both use it.
 */
export function columnCells(header: string, exact: boolean): string {
  const th = headerCell(header, exact)
  const position = `count((ancestor::table[1]//${th})[1]/preceding-sibling::*)`
  return `//table[.//${th}]//tr/td[count(preceding-sibling::*) = ${position}]`
}

/** The one cell of that column in a row, as an XPath relative to the row (a record's part). */
export function columnCellOfRow(header: string, exact: boolean): string {
  const th = headerCell(header, exact)
  return `./td[count(preceding-sibling::*) = count((ancestor::table[1]//${th})[1]/preceding-sibling::*)]`
}
