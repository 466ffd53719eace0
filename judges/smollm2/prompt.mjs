// prompt.mjs: the SmolLM2 judge's prompt, UMBRELA's, filled in with a pair's texts and put in
// the model's chat template (judge.mjs).
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

// The chat templates, up to the answer's start: SmolLM2's ChatML (with its default system line),
// and Gemma 3's turns.
export const templates = {
  llama: (user) => `<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n##final score: `,
  gemma3: (user) => `<start_of_turn>user\n${user}<end_of_turn>\n<start_of_turn>model\n##final score: `,
};

// fill returns UMBRELA's prompt with the query and the passage in place of {query} and {passage},
// as written: one pass over the template (a query naming "{passage}" stays as it is), and the
// texts given by a function, never as a replacement string (where String.replace reads $&, $`,
// $' and $$ as syntax).
export function fill(query, passage) {
  return UMBRELA.replace(/\{query\}|\{passage\}/g, (m) => (m === "{query}" ? query : passage));
}
