/**
 * A message's `webhook-id`: the same on every attempt, so receivers can drop a repeat. The creation
 * time is in it because ids restart with each database, and a receiver may hear from several.
 */
export function messageIdOf(message: { id: number; createdAt: Date }): string {
  return `msg_${message.createdAt.getTime().toString(36)}${message.id}`;
}
