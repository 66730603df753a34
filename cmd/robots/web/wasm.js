// wasm.js: the engine of the static tester. The page built by
// build-static.sh has no server behind it: this script runs robots.wasm
// (the robots command's engine, built for GOOS=js GOARCH=wasm, with Go's
// wasm_exec.js loaded before it) and gives the page
// window.robotsLocalAPI(path, body), a Promise of the JSON answer robots
// serve gives to body posted to path. Calls made before the engine has
// loaded wait for it; should it fail to load, they are rejected with the
// reason.
'use strict';

(function () {
  const queue = []; // calls made before the engine is ready
  let failure = null; // the Error the engine failed to load with

  window.robotsLocalAPI = function (path, body) {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => queue.push({ path, body, resolve, reject }));
  };

  // instantiate compiles robots.wasm as it downloads; a server that does
  // not send it as application/wasm gets it compiled once downloaded.
  async function instantiate(imports) {
    const resp = fetch('robots.wasm');
    try {
      return await WebAssembly.instantiateStreaming(resp, imports);
    } catch (e) {
      const r = await resp;
      if (!r.ok) throw new Error('robots.wasm: ' + r.status + ' ' + r.statusText);
      return WebAssembly.instantiate(await r.arrayBuffer(), imports);
    }
  }

  async function start() {
    const go = new Go();
    const { instance } = await instantiate(go.importObject);
    const waiting = window.robotsLocalAPI;
    go.run(instance); // main sets window.robotsLocalAPI before it waits for calls
    const engine = window.robotsLocalAPI;
    if (engine === waiting) throw new Error('robots.wasm gave no robotsLocalAPI');
    for (const c of queue.splice(0)) engine(c.path, c.body).then(c.resolve, c.reject);
  }

  start().catch((e) => {
    failure = new Error('the tester\'s engine did not load: ' + e.message +
      (location.protocol === 'file:' ? ' (browsers do not fetch robots.wasm from a file:// page: serve this folder over HTTP)' : ''));
    for (const c of queue.splice(0)) c.reject(failure);
  });
})();
