/*
 * How a feed's relative links become absolute, as feed readers resolve them: against the nearest
 * xml:base (XML Base, RFC 4287 §2), which may sit on any element and is itself resolved against its
 * parent's base; above the root, against the document's own address (its Content-Location, else the
 * URL it was fetched from).
 */

/** The base each open element's contents resolve against, innermost last. */
export class XmlBases {
  private readonly bases: (string | undefined)[] = [];

  constructor(private readonly documentBase: string | undefined) {}

  /** The base of the element just opened: its own xml:base, resolved against its parent's, or its parent's. */
  enter(attributes: Record<string, string>): void {
    const parent = this.current();
    const own = attributes["xml:base"];
    this.bases.push(own === undefined ? parent : (resolved(own, parent) ?? parent));
  }

  leave(): void {
    this.bases.pop();
  }

  /** The base of the innermost open element (which its attributes and text resolve against). */
  current(): string | undefined {
    return this.bases.length ? this.bases[this.bases.length - 1] : this.documentBase;
  }
}

/** `reference` resolved against `base`; undefined when it cannot be. */
export function resolved(reference: string, base: string | undefined): string | undefined {
  try {
    return new URL(reference.trim(), base).href;
  } catch {
    return undefined;
  }
}

function isAbsolute(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** An entry's link as an absolute URL; one that cannot be resolved is kept as written, to be counted invalid. */
export function feedLink(value: string, base: string | undefined): string {
  // An empty link is no link: resolved, it would name the feed itself.
  if (!value || isAbsolute(value)) return value;
  return resolved(value, base) ?? value;
}

/** RSS 2.0: a guid is the item's permalink unless `isPermaLink="false"` (the default is true). */
export function isPermaLink(attributes: Record<string, string>): boolean {
  return attributes.isPermaLink?.trim().toLowerCase() !== "false";
}
