/** "1 URL", "2 URLs", "1,204 calls": counts in status messages. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/** "81 %": a share (0 to 1) in whole percent, below 1 % and above 99 % to a tenth, so that neither rounds to 0 or 100 when it is not. */
export function percentOf(share: number): string {
  const percent = share * 100;
  const digits = (percent > 0 && percent < 1) || (percent > 99 && percent < 100) ? 1 : 0;
  return `${percent.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits })} %`;
}
