/** The document is not one we can read; retrying will not help. */
export class SourceFormatError extends Error {}
