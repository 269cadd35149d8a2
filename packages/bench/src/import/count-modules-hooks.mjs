// The loader hooks count-modules.mjs registers: reports every ES module Node loads from a file.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (url.startsWith('file:') && result.format === 'module') port.postMessage(url);
  return result;
}
