// What the browser tests of the notebook panels (live-test.mjs, judge-test.mjs) share: the
// processes GoNB runs under a Jupyter server, and a front-end's actions on its page in JupyterLab
// 4, Notebook 7 or the classic Notebook 6.
import { readFileSync, readdirSync } from "node:fs";

// procs lists the machine's processes from /proc: pid, command name, state and parent pid.
export function procs() {
  const all = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = st.lastIndexOf(")");
      const f = st.slice(close + 2).split(" ");
      all.push({ pid: Number(d), comm: st.slice(st.indexOf("(") + 1, close), state: f[0], ppid: Number(f[1]) });
    } catch (e) { /* gone meanwhile */ }
  }
  return all;
}

// gonbProcesses returns the GoNB kernels under the Jupyter server serverPid (any, when 0) and
// their cell programs (GoNB's gonb_* binaries: children that are not `go` and not zombies), so
// other users' notebooks on the machine are not counted.
export function gonbProcesses(serverPid) {
  const all = procs();
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const under = (p) => {
    for (let q = p, n = 0; q && n < 64; q = byPid.get(q.ppid), n++) { if (q.pid === serverPid) return true; }
    return false;
  };
  const kernels = all.filter((p) => p.comm === "gonb" && (!serverPid || under(p)));
  const ids = kernels.map((p) => p.pid);
  return { kernels, cells: all.filter((p) => ids.includes(p.ppid) && p.comm !== "go" && p.state !== "Z") };
}

// frontEnd returns the actions on page of one front-end (frontend: "lab", "notebook7" or
// "classic"): the classic Notebook's Jupyter object, or JupyterLab's application
// (window.jupyterapp, exposed with --expose-app-in-browser; Notebook 7 is built on it).
export function frontEnd(page, { frontend, base, token, notebook }) {
  const classic = frontend === "classic";
  return {
    classic,
    cell: classic ? ".cell" : ".jp-Cell", // a notebook cell's element
    url: () => frontend === "lab" ? `${base}/lab/tree/${notebook}?token=${token}` : `${base}/notebooks/${notebook}?token=${token}`,
    // ready waits for the notebook's kernel to be connected and idle.
    ready: (timeout = 120000) => page.waitForFunction(classic
      ? () => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()
      : (name) => {
        // JupyterLab sometimes asks which kernel to start although the notebook names Go (gonb)
        // (seen once in 4 fresh CI runs, with a restored second notebook starting its kernel at
        // the same moment): a user clicks Select, the preselected Go (gonb).
        const dlg = document.querySelector(".jp-Dialog");
        if (dlg && /Select Kernel/.test(dlg.textContent) && /Go \(gonb\)/.test(dlg.textContent)) {
          const ok = dlg.querySelector(".jp-mod-accept");
          if (ok) ok.click();
        }
        const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
        // GoNB answers kernel_info but publishes no first status, so JupyterLab may say "unknown"
        // ... and it must be this notebook's kernel, not that of another notebook the workspace
        // reopened and shows first.
        const here = !name || (!!w && !!w.context && w.context.path.split("/").pop() === name.split("/").pop());
        return here && !!k && k.connectionStatus === "connected" && ["idle", "unknown"].includes(k.status) && !!w.content && w.content.widgets.length > 0;
      }, notebook || "", { timeout, polling: 200 }),
    // connected waits for the kernel's connection only (a kernel still busy with a cell counts).
    connected: (timeout = 60000) => page.waitForFunction(classic
      ? () => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()
      : () => {
        const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
        return !!k && k.connectionStatus === "connected" && !!w.content && w.content.widgets.length > 0;
      }, null, { timeout, polling: 200 }),
    runAll: () => page.evaluate(classic ? () => Jupyter.notebook.execute_all_cells()
      : () => { window.jupyterapp.commands.execute("notebook:run-all-cells"); }),
    interrupt: () => page.evaluate(classic ? () => Jupyter.notebook.kernel.interrupt()
      : () => { window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.interrupt(); }),
    restart: () => page.evaluate(classic ? () => Jupyter.notebook.kernel.restart()
      : () => { window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart(); }),
    idle: () => page.waitForFunction(classic
      ? () => Jupyter.notebook.kernel_busy === false || !document.querySelector("#notebook .running")
      : () => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === "idle",
    null, { timeout: 20000, polling: 100 }).catch(() => {}),
    // cells counts the notebook's cells.
    cells: () => page.evaluate(classic ? () => Jupyter.notebook.get_cells().length
      : () => window.jupyterapp.shell.currentWidget.content.widgets.length),
    // dismissDialogs accepts the dialogs the front-end shows (the kernel died and restarts, ...),
    // which would take the keyboard's focus.
    dismissDialogs: async () => {
      for (let i = 0; i < 20; i++) {
        const btn = page.locator(classic ? ".modal.in .modal-footer button" : ".jp-Dialog .jp-mod-accept, .jp-Dialog button").first();
        if (!(await btn.count())) return;
        await btn.click().catch(() => {});
        await page.waitForTimeout(200);
      }
    },
    // dialog waits up to ms for such a dialog.
    dialog: (ms) => page.waitForSelector(classic ? ".modal.in" : ".jp-Dialog", { timeout: ms }).catch(() => {}),
    // setTheme switches JupyterLab's theme ("JupyterLab Dark", light false) and waits for the page
    // to say so; the classic Notebook has one theme (false).
    setTheme: async (name, light) => {
      if (classic) return false;
      await page.evaluate((name) => window.jupyterapp.commands.execute("apputils:change-theme", { theme: name }), name);
      await page.waitForFunction((light) => document.body.getAttribute("data-jp-theme-light") === String(light), light, { timeout: 30000, polling: 200 }).catch(() => {});
      await page.waitForTimeout(800);
      return true;
    },
  };
}
