// Runs once when the server starts: open (and migrate) the database before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
