/**
 * JSON-LD for a <script type="application/ld+json"> element's text. JSON.stringify alone would let
 * a '</script>' inside a title close the element; escaping <, > and & (and the two line separators
 * old parsers reject) keeps the text inside it while staying the same JSON.
 */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
