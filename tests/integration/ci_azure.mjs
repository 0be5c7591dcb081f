// ci_azure.mjs TOOLS SCHEMA FILE -- an Azure Pipelines YAML file through
// the validator of Azure Pipelines' editors (npm azure-pipelines-language-
// service, from the node_modules folder TOOLS) against the schema Azure
// DevOps publishes (service-schema.json of microsoft/azure-pipelines-
// vscode, or GET _apis/distributedtask/yamlschema); tests/integration/
// ci.sh runs it when AZURE_PIPELINES_SCHEMA names that file, since the
// package ships no schema. Prints each problem; exits 1 if any.
import fs from "node:fs";
import { createRequire } from "node:module";

const [tools, schemaFile, file] = process.argv.slice(2);
const require = createRequire(`${tools}/`);
const aps = require("azure-pipelines-language-service");
const { TextDocument } = require("vscode-languageserver-textdocument");
const schemaUri = "file:///azure-pipelines-schema.json";
const schema = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
// (its schema service takes the schema parsed, not its text)
const request = (uri) =>
  uri === schemaUri ? Promise.resolve(schema) : Promise.reject(new Error(`no schema ${uri}`));
const workspace = { resolveRelativePath: (p) => p };
// the package logs its schema lookups on the console: quiet while it works
const say = console.log;
console.log = () => {};
const ls = aps.getLanguageService(request, [], null, workspace);
ls.configure({ validate: true, schemas: [{ uri: schemaUri, fileMatch: ["*"] }] });
const text = fs.readFileSync(file, "utf8");
const doc = TextDocument.create(`file:///${file}`, "yaml", 1, text);
const problems = await ls.doValidation(doc, aps.parse(text));
console.log = say;
for (const d of problems)
  console.log(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);
if (!problems.length) console.log(`${file}: valid (${schema.$comment || "schema"})`);
process.exit(problems.length ? 1 : 0);
