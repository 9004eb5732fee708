// The rules engine on the device: Pyodide running `allfives` itself, in a worker so the
// page stays responsive while it loads. The page sends {type: "load", pyodide, index,
// bundle} once, then {type: "judge", id, document, names, catalogue}; each judge is
// answered {id, verdict} with matches.device.device_judge's verdict (or {id, error}).
/* global loadPyodide, importScripts */
"use strict";

let ready = null;

async function load({ pyodide, index, bundle }) {
  importScripts(pyodide);
  const runtime = await loadPyodide({ indexURL: index });
  const response = await fetch(bundle, { credentials: "same-origin" });
  if (!response.ok) {
    throw new Error(`engine bundle: HTTP ${response.status}`);
  }
  const site = runtime.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  runtime.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: site });
  runtime.runPython("import json\nfrom matches.device import device_judge");
  return runtime;
}

function judge(runtime, { document, names, catalogue }) {
  runtime.globals.set("_request", JSON.stringify({ document, names, catalogue }));
  const text = runtime.runPython(`
_r = json.loads(_request)
json.dumps(device_judge(_r["document"], {int(k): v for k, v in _r["names"].items()}, _r["catalogue"]))
`);
  return JSON.parse(text);
}

self.addEventListener("message", async (event) => {
  const data = event.data || {};
  if (data.type === "load") {
    ready = ready || load(data);
    try {
      await ready;
      self.postMessage({ type: "ready" });
    } catch (error) {
      ready = null;
      self.postMessage({ type: "failed", error: String(error) });
    }
  } else if (data.type === "judge") {
    try {
      const runtime = await ready;
      self.postMessage({ id: data.id, verdict: judge(runtime, data) });
    } catch (error) {
      self.postMessage({ id: data.id, error: String(error) });
    }
  }
});
