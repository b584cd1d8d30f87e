/** Fixed ports (E2E_PORT to move them): the config needs the app's address before global setup runs. */
const base = Number(process.env.E2E_PORT ?? 3310);

export const e2ePorts = { app: base, origin: base + 1, closed: base + 2 };
export const originUrl = `http://127.0.0.1:${e2ePorts.origin}`;
