/**
 * A RegExp that matches `text` as it is written (`assert.match` takes a RegExp; the old uvu
 * `match` took a plain string too, and many checks look for a message or a path that holds
 * regex characters). A RegExp is returned as it is.
 */
export function literal(text: string | RegExp): RegExp {
  return typeof text === 'string' ? new RegExp(text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')) : text;
}
