/** "1 URL", "2 URLs", "1,204 calls": counts in status messages. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}
