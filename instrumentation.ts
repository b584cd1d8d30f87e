// Runs once when the server starts: open (and migrate) the database before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Before the first request: per-client limits need the address each connection came from.
  const { stampPeerAddresses } = await import("./lib/auth/client-address");
  stampPeerAddresses();
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
