// The loader hooks record-loaded-modules.mjs registers: reports every ES module loaded from a file.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (url.startsWith('file:')) port.postMessage(url);
  return result;
}
