/**
 * The on-chain SVG rule for art NFTs: an SVG is accepted only if it can do nothing but draw.
 * No scripts, no event handlers, no embedded documents, no references outside the document.
 */

const FORBIDDEN: [RegExp, string][] = [
  [/<\s*script\b/i, 'a <script> element'],
  [/<\s*foreignObject\b/i, 'a <foreignObject> element'],
  [/<\s*(iframe|embed|object|audio|video|image|use|a)\b/i, 'an element that loads or links other content'],
  [/<!\s*(DOCTYPE|ENTITY)/i, 'a DOCTYPE or ENTITY declaration'],
  [/<\?(?!xml\s)/i, 'a processing instruction'],
  [/\son[a-z]+\s*=/i, 'an event handler attribute'],
  [/javascript\s*:/i, 'a javascript: URL'],
  [/(?:^|[\s"'])(?:xlink:)?href\s*=\s*["']?(?!#)/i, 'a reference outside the document'],
  [/url\s*\(\s*["']?(?!#)/i, 'a url() outside the document'],
  [/@import/i, 'an @import'],
];

/** Why an SVG may not go on chain, or null when it is safe. */
export function svgProblem(svg: string): string | null {
  const body = svg.replace(/^\s*(<\?xml[^>]*\?>)?\s*/, '');
  if (!/^<svg[\s>]/i.test(body) || !/<\/svg>\s*$/i.test(body)) return 'must be a single <svg> document';
  for (const [re, what] of FORBIDDEN) if (re.test(svg)) return `contains ${what}`;
  return null;
}
