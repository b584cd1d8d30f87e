/** The credential of an `Authorization: Bearer <credential>` header, or undefined for any other header or none. */
export function bearerCredential(authorization: string | null | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
}
