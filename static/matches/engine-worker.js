// The rules engine on the device: Pyodide running `allfives` itself, in a worker so the
// page stays responsive while it loads. The page sends {type: "load", pyodide, index,
// bundle} once, then {type: "judge", id, document, names, catalogue}; each judge is
// answered {id, verdict} with matches.device.device_judge's verdict (or {id, error});
// the document may come as JSON text.
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
  runtime.runPython(`
import json
from matches.device import device_judge

def judge_text(document, names, catalogue):
    seats = {int(seat): name for seat, name in json.loads(names).items()}
    return json.dumps(device_judge(json.loads(document), seats, json.loads(catalogue)))
`);
  return runtime.globals.get("judge_text");
}

// The document goes to Python as the JSON text it came as (a JavaScript number would
// lose the difference between 1 and 1.0, which the engine's format checks see).
function judge(judgeText, { document, names, catalogue }) {
  const text = typeof document === "string" ? document : JSON.stringify(document);
  return JSON.parse(judgeText(text, JSON.stringify(names || {}), JSON.stringify(catalogue)));
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
      const judgeText = await ready;
      self.postMessage({ id: data.id, verdict: judge(judgeText, data) });
    } catch (error) {
      self.postMessage({ id: data.id, error: String(error) });
    }
  }
});
